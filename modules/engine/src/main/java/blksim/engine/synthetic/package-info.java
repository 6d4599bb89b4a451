/**
 * A synthetic workload with nothing of the kernel in it, for engine tests and benchmarks:
 * {@link blksim.engine.synthetic.PingModelFactory} (components bouncing
 * {@link blksim.engine.synthetic.Ping} tokens) and {@link blksim.engine.synthetic.EngineBench}.
 */
package blksim.engine.synthetic;
