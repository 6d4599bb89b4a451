package blksim.workload.fio.stats;

import java.util.Objects;

/**
 * One simulated disk's counters over the run, mirroring fio's {@code struct disk_util_stat}
 * (itself a delta of {@code /sys/block/<dev>/stat}) as {@code print_disk_util()} and
 * {@code json_array_add_disk_util()} print it. Simplified: no md/dm slave aggregation
 * ({@code aggr_*}).
 *
 * @param name device name, e.g. {@code "vda"}
 * @param readIos completed read requests
 * @param writeIos completed write requests
 * @param readSectors 512-byte sectors read
 * @param writeSectors 512-byte sectors written
 * @param readMerges read requests merged
 * @param writeMerges write requests merged
 * @param readTicksMs milliseconds spent on reads
 * @param writeTicksMs milliseconds spent on writes
 * @param inQueueMs weighted milliseconds with requests in queue ({@code time_in_queue})
 * @param utilPercent busy time as a percentage of the run; printed clamped to 100
 * @param tagWaits submitters' sleeps for a tag of the disk's queues (blksim's addition, not
 *     fio's: printed in the JSON's {@code blksim.queues})
 * @param tagWaitNs time those sleeps lasted, ns
 * @param lockSpins submissions that spun on the queue's contended scheduler lock
 * @param lockSpinNs time they spun, ns
 */
public record DiskStats(String name, long readIos, long writeIos, long readSectors, long writeSectors,
                        long readMerges, long writeMerges, long readTicksMs, long writeTicksMs, long inQueueMs,
                        double utilPercent, long tagWaits, long tagWaitNs, long lockSpins,
                        long lockSpinNs) {

    /** A disk without tag-wait figures. */
    public DiskStats(String name, long readIos, long writeIos, long readSectors, long writeSectors,
                     long readMerges, long writeMerges, long readTicksMs, long writeTicksMs, long inQueueMs,
                     double utilPercent) {
        this(name, readIos, writeIos, readSectors, writeSectors, readMerges, writeMerges, readTicksMs,
            writeTicksMs, inQueueMs, utilPercent, 0, 0, 0, 0);
    }

    /** Validates the components. */
    public DiskStats {
        Objects.requireNonNull(name, "name must not be null");
    }
}
