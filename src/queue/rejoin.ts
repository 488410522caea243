/** What happens to a queued agent whose bridged customer hung up. */
export type AfterBridgeDecision = 'connect-next' | 'rejoin' | 'drop';

/**
 * The platform's rejoin rule as a pure function: customers waiting -> connect the next one; none
 * and `rejoin` -> the agent waits in the queue again (hold audio); none and not `rejoin` -> the
 * agent's call is dropped.
 */
export function decideAfterBridge(input: { customersWaiting: number; rejoin: boolean }): AfterBridgeDecision {
  if (input.customersWaiting > 0) return 'connect-next';
  return input.rejoin ? 'rejoin' : 'drop';
}
