package blksim.engine.synthetic;

import blksim.engine.Message;

/**
 * The synthetic workload's only message: a token bounced between ping components.
 *
 * @param origin index of the component that sent it
 * @param token a value carried from hop to hop and folded into the receiver's checksum
 */
public record Ping(int origin, long token) implements Message {}
