package blksim.report.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JsonWriterTest {

    @Test
    void layout_followsFiosPrettyPrinter() {
        JsonWriter w = new JsonWriter();
        w.beginObject()
            .name("s").value("x")
            .name("o").beginObject().name("i").value(3).name("f").value(1.5).endObject()
            .name("a").beginArray()
                .beginObject().name("k").value(true).endObject()
                .value(7)
            .endArray()
            .name("e").beginArray().endArray()
            .endObject();
        String expected = "{\n"
            + "  \"s\" : \"x\",\n"
            + "  \"o\" : {\n"
            + "    \"i\" : 3,\n"
            + "    \"f\" : 1.500000\n"
            + "  },\n"
            + "  \"a\" : [\n"
            + "    {\n"
            + "      \"k\" : true\n"
            + "    },\n"
            + "    7\n"
            + "  ],\n"
            + "  \"e\" : [\n"
            + "\n"
            + "  ]\n"
            + "}";
        assertEquals(expected, w.toString());
        assertTrue(w.isComplete());
    }

    @Test
    void formatDouble_isCsPercentF() {
        assertEquals("0.000000", JsonWriter.formatDouble(0.0));
        assertEquals("99.833333", JsonWriter.formatDouble(5990 / 6000.0 * 100));
        assertEquals("0.000000", JsonWriter.formatDouble(5e-7));      // tie on the exact binary value
        assertEquals("0.000001", JsonWriter.formatDouble(5.000001e-7));
        assertEquals("123456789012.000000", JsonWriter.formatDouble(123456789012.0));
        assertEquals("-2.500000", JsonWriter.formatDouble(-2.5));
        assertEquals("0.000000", JsonWriter.formatDouble(Double.NaN));
    }

    @Test
    void strings_areEscaped() {
        String out = new JsonWriter().beginObject().name("q\"k").value("a\\b\"c\nd\u0001").endObject().toString();
        assertEquals("{\n  \"q\\\"k\" : \"a\\\\b\\\"c\\nd\\u0001\"\n}", out);
        assertEquals("a\\b\"c\nd\u0001", JsonReader.parseObject(out).get("q\"k"));
    }

    @Test
    void misuse_isRejected() {
        assertThrows(IllegalStateException.class, () -> new JsonWriter().beginArray());
        assertThrows(IllegalStateException.class, () -> new JsonWriter().beginObject().value(1));
        assertThrows(IllegalStateException.class, () -> new JsonWriter().beginObject().name("a").name("b"));
        assertThrows(IllegalStateException.class, () -> new JsonWriter().beginObject().endArray());
        assertThrows(IllegalStateException.class, () -> new JsonWriter().beginObject().endObject().beginObject());
    }
}
