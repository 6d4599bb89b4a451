package blksim.report.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class JsonReaderTest {

    @Test
    void parse_mapsJsonTypesAndKeepsKeyOrder() {
        Map<String, Object> m = JsonReader.parseObject(
            " {\"z\" : 1, \"a\": [1.5, -2e3, \"s\\u00e9\\/\"], \"t\":true, \"f\":false, \"n\":null, \"o\":{}} ");
        assertEquals(List.of("z", "a", "t", "f", "n", "o"), new ArrayList<>(m.keySet()));
        assertEquals(1.0, m.get("z"));
        assertEquals(List.of(1.5, -2000.0, "s\u00e9/"), m.get("a"));
        assertEquals(Boolean.TRUE, m.get("t"));
        assertEquals(Boolean.FALSE, m.get("f"));
        assertTrue(m.containsKey("n"));
        assertNull(m.get("n"));
        assertEquals(Map.of(), m.get("o"));
    }

    @Test
    void parse_duplicateKeys_lastValueWins() {
        // old fio versions repeat "0.00" inside "percentile"
        Map<String, Object> m = JsonReader.parseObject("{\"0.00\" : 1, \"x\" : 2, \"0.00\" : 3}");
        assertEquals(3.0, m.get("0.00"));
        assertEquals(List.of("0.00", "x"), new ArrayList<>(m.keySet()));
    }

    @Test
    void parseAll_skipsLeadingTextAndReadsConcatenatedObjects() {
        String text = "fio: terminating on signal 2\n{\"a\" : 1}\n{\"a\" : 2}\n";
        List<Object> all = JsonReader.parseAll(text);
        assertEquals(2, all.size());
        assertEquals(Map.of("a", 2.0), all.get(1));
    }

    @Test
    void parse_rejectsMalformedInput() {
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("{\"a\" : 1,}"));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("{\"a\" 1}"));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("[1, 2"));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("{} {}"));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("\"abc"));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parseObject("[1]"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("nul"));
        assertTrue(e.getMessage().contains("offset 0"), e.getMessage());
    }
}
