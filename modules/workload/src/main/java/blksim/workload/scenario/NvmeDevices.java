package blksim.workload.scenario;

import blksim.kernel.block.BlkMqRules;
import blksim.kernel.block.RequestQueueParams;
import blksim.kernel.device.NvmeParams;
import blksim.kernel.device.SsdParams;

/**
 * The scenario keys of an {@code nvme} device ({@link ScenarioSchema#DEVICE_KEYS}): each bad
 * value is refused naming its key. Kept out of {@link ScenarioLoader} so that the loader only
 * dispatches to it.
 */
final class NvmeDevices {
  private NvmeDevices() {}

  /** The device {@code name} from its keys {@code dv} and the scenario's costs {@code v}. */
  static NvmeParams parse(String name, Values dv, Values v) {
    long size = dv.getSize("size");
    if (size % 4096 != 0) {
      throw dv.error("size", "size must be a multiple of 4 KiB, was " + size);
    }
    int bs = dv.getInt("bs");
    if (bs != 512 && bs != 4096) {
      throw dv.error("bs", "bs must be 512 or 4096, was " + bs);
    }
    String s = dv.getString("scheduler").trim();
    RequestQueueParams.Scheduler sched = s.equals("auto") ? null
        : RequestQueueParams.Scheduler.parse(s);
    int depth = dv.getInt("io-queue-depth");
    String nr = dv.getString("nr-requests").trim();
    int nrRequests = 0;
    if (!nr.equals("auto")) {
      nrRequests = ScenarioLoader.explicitNrRequests(dv, nr);
      if (sched == RequestQueueParams.Scheduler.NONE && nrRequests > depth - 1) {
        throw dv.error("nr-requests", "nr-requests cannot exceed the driver tags, io-queue-depth"
            + " - 1 (" + (depth - 1) + "), without a scheduler, was " + nrRequests);
      }
    }
    long maxBytes = dv.getSize("max-sectors");
    if (maxBytes % 512 != 0 || maxBytes < bs) {
      throw dv.error("max-sectors", "max-sectors must be a multiple of 512 bytes of at least bs ("
          + bs + "), was " + maxBytes);
    }
    long page = dv.getSize("page-size");
    if (Long.bitCount(page) != 1) {
      throw dv.error("page-size", "page-size must be a power of two, was " + page);
    }
    if (size % page != 0) {
      throw dv.error("size", "size must be a multiple of page-size (" + page + "), was " + size);
    }
    BlkMqRules rules = v.getString("kernel.mode").equals("V4_3_RC1") ? BlkMqRules.V4_3
        : BlkMqRules.V6;
    SsdParams drive = new SsdParams(size, dv.getInt("channels"), dv.getSize("bandwidth"),
        dv.getDuration("read-latency"), dv.getDuration("write-latency"), 1, (int) page);
    int ioQueues = dv.getInt("io-queues");
    int pollQueues = dv.getInt("poll-queues");
    if (pollQueues >= ioQueues) {
      throw dv.error("poll-queues", "poll-queues must be below io-queues (" + ioQueues + "): the"
          + " controller grants " + ioQueues + " I/O queues and nvme-pci keeps at least one with"
          + " an interrupt for non-polled I/O (nvme_setup_irqs()), was " + pollQueues);
    }
    return new NvmeParams(name, size, bs, ioQueues, depth, sched, nrRequests,
        maxBytes, dv.getInt("max-segments"), rules, v.getDuration("costs.nvme.submit"),
        v.getDuration("costs.nvme.complete"), drive, pollQueues);
  }

  /**
   * {@code nr-requests} against the driver tags once the CPUs are known: without a scheduler
   * (none, or auto on several hardware queues) the requests are the driver tags, so more is
   * refused naming the key.
   */
  static void checkNrRequests(com.typesafe.config.Config cfg, int nCpus,
      java.util.List<blksim.kernel.device.DeviceParams> devices) {
    for (int i = 0; i < devices.size(); i++) {
      if (!(devices.get(i) instanceof NvmeParams n)) {
        continue;
      }
      int q = n.hwQueues(nCpus);
      if (n.pollQueues() > nCpus) {
        com.typesafe.config.Config d = ((com.typesafe.config.ConfigObject)
            cfg.getList("blksim.devices").get(i)).toConfig();
        Values dv = new Values(d, null, ScenarioSchema.DEVICE_KEYS.get("nvme"),
            "blksim.devices." + i + ".");
        throw dv.error("poll-queues", "poll-queues cannot exceed the CPUs (" + nCpus + "): nvme-pci"
            + " refuses the module parameter (io_queue_count_set(): -EINVAL), was "
            + n.pollQueues());
      }
      if (n.schedulerFor(q) == RequestQueueParams.Scheduler.NONE
          && n.nrRequestsFor(q) > n.tagsPerQueue()) {
        com.typesafe.config.Config d = ((com.typesafe.config.ConfigObject)
            cfg.getList("blksim.devices").get(i)).toConfig();
        Values dv = new Values(d, null, ScenarioSchema.DEVICE_KEYS.get("nvme"),
            "blksim.devices." + i + ".");
        throw dv.error("nr-requests", "nr-requests cannot exceed the driver tags, io-queue-depth"
            + " - 1 (" + n.tagsPerQueue() + "), without a scheduler (scheduler = none, or auto"
            + " with " + q + " hardware queues), was " + n.nrRequestsFor(q));
      }
    }
  }
}
