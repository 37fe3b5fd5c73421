/** A delay that can be cut short: a retry loop sleeps on it, and stopping wakes it at once. */
export class Sleeper {
  private wake?: () => void;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  wakeUp(): void {
    this.wake?.();
  }
}
