package blksim.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import blksim.engine.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A malformed record names file, line, field and rule, in every format. */
class TraceErrorsTest {

  @ParameterizedTest(name = "{0}: {3}")
  @CsvSource(delimiter = '|', value = {
    "FIO_IOLOG|fio version 2 iolog\\n/dev/sdb read x 4096|2|offset must be a non-negative integer, was 'x'",
    "FIO_IOLOG|fio version 2 iolog\\n/dev/sdb read 0|2|action 'read' needs an offset and a length",
    "FIO_IOLOG|fio version 2 iolog\\n/dev/sdb add 0 512|2|action 'add' takes no offset or length (it acts on the file)",
    "FIO_IOLOG|fio version 2 iolog\\n/dev/sdb erase 0 512|2|action must be one of read, write, trim, sync, datasync, wait, add, open, close, was 'erase'",
    "FIO_IOLOG|fio version 3 iolog\\n5 /dev/sdb wait 100 0|2|action: 'wait' is not allowed in a version 3 iolog (the timestamps give the timing)",
    "FIO_IOLOG|fio version 3 iolog\\n-5 /dev/sdb read 0 512|2|time must be a non-negative integer, was '-5'",
    "FIO_IOLOG|read,0,4096|1|the first line must be 'fio version 2 iolog' or 'fio version 3 iolog' (iolog version 1 is no longer supported by fio), was 'read,0,4096'",
    "MSR|128166372003061629,hm,0,Write,1,2,3\\n128166372003061629,hm,0,Erase,1,2,3|2|Type must be Read or Write, was 'Erase'",
    "MSR|128166372003061629,hm,0,Read,1,2|1|expected 7 fields (Timestamp, Hostname, DiskNumber, Type, Offset, Size, ResponseTime), found 6",
    "MSR|12,hm,0,Read,1,2,3|1|Timestamp must be a Windows FILETIME at or after 1970-01-01 (>= 116444736000000000), was '12'",
    "SPC|0,12,512,X,0.5|1|Opcode must be R or W, was 'X'",
    "SPC|0,12,512,R,-0.5|1|Timestamp must be a non-negative decimal number, was '-0.5'",
    "ALIBABA|0,R,1,4096,abc|1|timestamp must be a non-negative integer, was 'abc'",
    "TENCENT|1538323199,8,8,2,5|1|IOType must be 0 (read) or 1 (write), was '2'",
    "SYSTOR|1.5,0.1,W,0,4096,-1|1|Size must be a non-negative integer, was '-1'",
    "DISKSIM|0.0 0 12 8|1|expected 5 fields (arrival_time, devno, blkno, bcount, flags), found 4",
    "DISKSIM|0.0 0 1e3 8 1|1|blkno must be a non-negative integer, was '1e3'"})
  void malformedRecord_namesFileLineFieldAndRule(TraceFormat format, String text, int line,
      String message, @TempDir Path dir) throws IOException {
    Path p = dir.resolve("bad.trace");
    Files.writeString(p, text.replace("\\n", "\n") + "\n");
    InputException e = assertThrows(InputException.class,
        () -> TraceTestFiles.readAll(p, format, TraceOptions.defaults()));
    assertEquals(p + ":" + line + ": " + message, e.getMessage());
    assertEquals(line, e.line());
    if (e.key() != null) {
      // A doubled field ("offset: offset must be ...") fails here.
      assertEquals(1, message.split("\\b" + java.util.regex.Pattern.quote(e.key()) + "\\b",
          -1).length - 1, "names its field once: " + e.getMessage());
    }
  }
}
