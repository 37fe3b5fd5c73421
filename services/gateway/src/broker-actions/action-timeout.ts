/**
 * How long the gateway waits for the owner to carry out an action or a browse: above the scraper's
 * wait on one Jolokia call (75 s, itself above the broker's wait for its management lock), so a
 * call that waited its turn on a busy broker is still answered.
 */
export const ACTION_TIMEOUT_MS = 90_000;
