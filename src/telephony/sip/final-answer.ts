import { T1, T2 } from './dialog.js';

/**
 * Sends a final answer to an INVITE and, over UDP, sends it again at T1, 2*T1... capped at T2
 * until the returned stop is called (its ACK came); after 64*T1 without it, `timedOut`
 * (RFC 3261 sections 13.3.1.4 and 17.2.1). Both sides of a call answer INVITEs this way.
 */
export function sendFinalAnswer(send: () => void, udp: boolean, timedOut: () => void): () => void {
  let retransmit: NodeJS.Timeout | undefined;
  send();
  if (udp) {
    let interval = T1;
    const again = () => {
      send();
      interval = Math.min(interval * 2, T2);
      retransmit = setTimeout(again, interval);
    };
    retransmit = setTimeout(again, interval);
  }
  const giveUp = setTimeout(() => {
    clearTimeout(retransmit);
    timedOut();
  }, 64 * T1);
  return () => {
    clearTimeout(retransmit);
    clearTimeout(giveUp);
  };
}
