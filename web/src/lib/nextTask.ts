/**
 * Resolves in a task of its own, after the current one. The locator's first commit runs every
 * component's effects in one task; starting the requests that the first paint does not need
 * (the session, the map credits, geolocation) after `await nextTask()` keeps that task short
 * (a long task blocks input: Lighthouse's total blocking time). A message channel, not
 * setTimeout: no 4 ms clamp, and tests' fake timers leave it alone.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}
