// Waiting for what the service does on its own (a timer, a notice from another instance, a write in
// flight): the check is asked again every 100 ms until it holds, and a wait that runs out fails the test,
// naming what it waited for.
export async function eventually(check: () => boolean | Promise<boolean>, what: string, seconds = 20): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
