// Program entry of the `signin` bin: runs the command line of this process and exits with its code.
// First, the young generation is held at its size while the process starts (young-generation.ts); the rest
// is imported after it: the modules a static import names are all loaded before any of them runs.
import './young-generation.ts';

const { run } = await import('./main.ts');

const code = await run(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});
// Exit explicitly once stdout is flushed: a paused stdin or an idle database pool must not keep the
// process alive after the command is done.
process.stdout.write('', () => process.exit(code));
