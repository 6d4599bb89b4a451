package blksim.report.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Minimal JSON parser for comparing fio-style outputs: objects become {@link LinkedHashMap}s
 * (key order kept; a duplicate key keeps its first position and takes the last value, which
 * tolerates the repeated percentile keys of old fio versions), arrays {@link ArrayList}s,
 * numbers {@link Double}s, plus {@link String}, {@link Boolean} and {@code null}.
 *
 * <p>{@link #parseAll(String)} reads what fio writes with {@code --status-interval} or after a
 * warning: it skips text before the first opening brace and reads consecutive objects.
 */
public final class JsonReader {

    private final String s;
    private int pos;

    private JsonReader(String s) {
        this.s = s;
    }

    /**
     * Parses one JSON value that makes up the whole of {@code text} (surrounding whitespace
     * allowed).
     *
     * @throws IllegalArgumentException on malformed input, naming the offset
     */
    public static Object parse(String text) {
        JsonReader r = new JsonReader(text);
        r.skipWs();
        Object v = r.readValue();
        r.skipWs();
        if (r.pos != r.s.length()) {
            throw r.error("trailing characters after the JSON value");
        }
        return v;
    }

    /**
     * Parses a sequence of JSON objects, skipping any text before each object's opening brace
     * (fio may print warnings before its JSON and concatenates objects with --status-interval).
     */
    public static List<Object> parseAll(String text) {
        JsonReader r = new JsonReader(text);
        List<Object> out = new ArrayList<>();
        while (true) {
            int brace = r.s.indexOf('{', r.pos);
            if (brace < 0) {
                return out;
            }
            r.pos = brace;
            out.add(r.readValue());
        }
    }

    /** Parses {@code text} and requires an object at the top. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) {
        Object v = parse(text);
        if (!(v instanceof Map)) {
            throw new IllegalArgumentException("expected a JSON object at the top level");
        }
        return (Map<String, Object>) v;
    }

    private Object readValue() {
        skipWs();
        if (pos >= s.length()) {
            throw error("unexpected end of input");
        }
        char c = s.charAt(pos);
        switch (c) {
            case '{':
                return readObject();
            case '[':
                return readArray();
            case '"':
                return readString();
            case 't':
                expectWord("true");
                return Boolean.TRUE;
            case 'f':
                expectWord("false");
                return Boolean.FALSE;
            case 'n':
                expectWord("null");
                return null;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return readNumber();
                }
                throw error("unexpected character '" + c + "'");
        }
    }

    private Map<String, Object> readObject() {
        Map<String, Object> m = new LinkedHashMap<>();
        pos++;
        skipWs();
        if (peek() == '}') {
            pos++;
            return m;
        }
        while (true) {
            skipWs();
            if (peek() != '"') {
                throw error("expected a string key");
            }
            String key = readString();
            skipWs();
            if (peek() != ':') {
                throw error("expected ':' after key \"" + key + "\"");
            }
            pos++;
            Object v = readValue();
            m.put(key, v);
            skipWs();
            char c = peek();
            pos++;
            if (c == '}') {
                return m;
            }
            if (c != ',') {
                throw error("expected ',' or '}' in object");
            }
        }
    }

    private List<Object> readArray() {
        List<Object> a = new ArrayList<>();
        pos++;
        skipWs();
        if (peek() == ']') {
            pos++;
            return a;
        }
        while (true) {
            a.add(readValue());
            skipWs();
            char c = peek();
            pos++;
            if (c == ']') {
                return a;
            }
            if (c != ',') {
                throw error("expected ',' or ']' in array");
            }
        }
    }

    private String readString() {
        pos++;
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= s.length()) {
                throw error("unterminated string");
            }
            char c = s.charAt(pos++);
            if (c == '"') {
                return b.toString();
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (pos >= s.length()) {
                throw error("unterminated escape");
            }
            char e = s.charAt(pos++);
            switch (e) {
                case '"' -> b.append('"');
                case '\\' -> b.append('\\');
                case '/' -> b.append('/');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    if (pos + 4 > s.length()) {
                        throw error("truncated \\u escape");
                    }
                    try {
                        b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw error("bad \\u escape");
                    }
                    pos += 4;
                }
                default -> throw error("bad escape '\\" + e + "'");
            }
        }
    }

    private Double readNumber() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if ((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                pos++;
            } else {
                break;
            }
        }
        String num = s.substring(start, pos);
        try {
            return Double.valueOf(num);
        } catch (NumberFormatException ex) {
            throw error("bad number \"" + num + "\"");
        }
    }

    private void expectWord(String w) {
        if (!s.startsWith(w, pos)) {
            throw error("expected " + w);
        }
        pos += w.length();
    }

    private char peek() {
        if (pos >= s.length()) {
            throw error("unexpected end of input");
        }
        return s.charAt(pos);
    }

    private void skipWs() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                pos++;
            } else {
                break;
            }
        }
    }

    private IllegalArgumentException error(String msg) {
        return new IllegalArgumentException("JSON: " + msg + " at offset " + pos);
    }
}
