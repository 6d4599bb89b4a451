/**
 * A minimal JSON writer that reproduces fio's pretty-printer (json.c) and a minimal, tolerant
 * JSON reader. No external JSON library is used.
 */
package blksim.report.json;
