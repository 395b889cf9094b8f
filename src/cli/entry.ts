// Program entry of the `signin` bin: runs the command line of this process and exits with its code.
// First, before any other module loads: the young generation is held at its size while the process starts.
import './young-generation.ts';
import { run } from './main.ts';

const code = await run(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});
// Exit explicitly once stdout is flushed: a paused stdin or an idle database pool must not keep the
// process alive after the command is done.
process.stdout.write('', () => process.exit(code));
