/** The unmount workload: a dirty volume of files left for a timed {@code umount} to write back. */
package blksim.workload.umount;
