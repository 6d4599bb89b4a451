package blksim.report.json;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Streaming JSON writer with fio's layout (mirrors {@code json_print_object()},
 * {@code json_print_array()} and {@code json_print_value()} of fio's json.c): one key or array
 * element per line, two spaces per nesting level, {@code "key" : value}, integers as
 * {@code %lld} and floating-point values as C's {@code %f} (six decimals, exact binary value
 * rounded half to even, {@link java.util.Locale#ROOT}-independent). Keys are written in call
 * order, so the caller fixes the order.
 *
 * <p>Differences from fio: control characters in strings are escaped (fio escapes only
 * {@code \} and {@code "}); non-finite doubles are written as {@code 0.000000} instead of
 * {@code nan}/{@code inf}, so the output stays valid JSON. An empty container prints as fio
 * prints it: the opening bracket, an empty line and the indented closing bracket.
 *
 * <p>Usage: {@code new JsonWriter().beginObject().name("a").value(1).endObject().toString()}.
 */
public final class JsonWriter {

    private static final class Frame {
        final boolean object;
        final int level;
        int count;
        boolean awaitingValue;

        Frame(boolean object, int level) {
            this.object = object;
            this.level = level;
        }
    }

    private final StringBuilder out = new StringBuilder(4096);
    private final Deque<Frame> stack = new ArrayDeque<>();
    private boolean done;

    /** Starts an object (the root, an array element, or the value of the pending name). */
    public JsonWriter beginObject() {
        int level = beforeValue(true);
        out.append("{\n");
        stack.push(new Frame(true, level));
        return this;
    }

    /** Ends the current object. */
    public JsonWriter endObject() {
        Frame f = stack.peek();
        if (f == null || !f.object || f.awaitingValue) {
            throw new IllegalStateException("endObject without an open object (or with a name awaiting a value)");
        }
        stack.pop();
        out.append('\n');
        indent(f.level);
        out.append('}');
        if (stack.isEmpty()) {
            done = true;
        }
        return this;
    }

    /** Starts an array (an array element, or the value of the pending name). */
    public JsonWriter beginArray() {
        int level = beforeValue(false);
        out.append("[\n");
        stack.push(new Frame(false, level));
        return this;
    }

    /** Ends the current array. */
    public JsonWriter endArray() {
        Frame f = stack.peek();
        if (f == null || f.object) {
            throw new IllegalStateException("endArray without an open array");
        }
        stack.pop();
        out.append('\n');
        indent(f.level);
        out.append(']');
        if (stack.isEmpty()) {
            done = true;
        }
        return this;
    }

    /** Writes the name of the next pair of the current object. */
    public JsonWriter name(String name) {
        Frame f = stack.peek();
        if (f == null || !f.object || f.awaitingValue) {
            throw new IllegalStateException("name(\"" + name + "\") outside an object or after another name");
        }
        if (f.count > 0) {
            out.append(",\n");
        }
        f.count++;
        indent(f.level + 1);
        out.append('"');
        escape(name);
        out.append("\" : ");
        f.awaitingValue = true;
        return this;
    }

    /** Writes a string value. */
    public JsonWriter value(String s) {
        if (s == null) {
            return nullValue();
        }
        beforeValue(false);
        out.append('"');
        escape(s);
        out.append('"');
        return this;
    }

    /** Writes an integer value ({@code %lld}). */
    public JsonWriter value(long v) {
        beforeValue(false);
        out.append(v);
        return this;
    }

    /** Writes a floating-point value as C's {@code %f}. */
    public JsonWriter value(double v) {
        beforeValue(false);
        out.append(formatDouble(v));
        return this;
    }

    /** Writes a boolean value. */
    public JsonWriter value(boolean v) {
        beforeValue(false);
        out.append(v);
        return this;
    }

    /** Writes {@code null}. */
    public JsonWriter nullValue() {
        beforeValue(false);
        out.append("null");
        return this;
    }

    /** C's {@code %f} of {@code v}: six decimals of the exact binary value, half to even. */
    public static String formatDouble(double v) {
        if (!Double.isFinite(v)) {
            return "0.000000";
        }
        String s = new BigDecimal(v).setScale(6, RoundingMode.HALF_EVEN).toPlainString();
        if ((v < 0 || (v == 0.0 && 1.0 / v < 0)) && !s.startsWith("-")) {
            s = "-" + s;
        }
        return s;
    }

    /**
     * Handles the separator and indentation before a value and returns the nesting level a
     * container started here gets (fio's {@code json_object_level()}/{@code json_array_level()}).
     */
    private int beforeValue(boolean objectValue) {
        if (done) {
            throw new IllegalStateException("the root value is already complete");
        }
        Frame f = stack.peek();
        if (f == null) {
            if (!objectValue) {
                throw new IllegalStateException("the root value must be an object");
            }
            return 0;
        }
        if (f.object) {
            if (!f.awaitingValue) {
                throw new IllegalStateException("a value inside an object needs a name first");
            }
            f.awaitingValue = false;
            return f.level + 1;
        }
        if (f.count > 0) {
            out.append(",\n");
        }
        f.count++;
        indent(f.level + 1);
        return f.level + 1;
    }

    private void indent(int level) {
        for (int i = 0; i < level; i++) {
            out.append("  ");
        }
    }

    private void escape(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
    }

    /** Whether the root object has been closed. */
    public boolean isComplete() {
        return done;
    }

    /**
     * The text written so far.
     *
     * @return the JSON text (without a trailing newline)
     */
    @Override
    public String toString() {
        return out.toString();
    }
}
