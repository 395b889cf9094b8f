// Whether this process runs the embedded store, whose Postgres is WebAssembly. Code that starts threads
// needs to know: on Node 22 to 24, V8 keeps one registry of the JIT pages of every isolate of the process,
// and a worker thread's isolate running beside PGlite's churn of WebAssembly code can make it abort the
// whole process ("Check failed: jit_page_->allocations_.erase(addr) == 1"; nodejs/node#64500). Seen here
// in a test process that ran PGlite and a password-hashing thread together.
type Listener = () => Promise<void>;

const listeners: Listener[] = [];
let loaded = false;

/** Called by the embedded store before it loads PGlite; resolves once every listener is done. */
export async function webAssemblyStoreLoading(): Promise<void> {
  if (loaded) return;
  loaded = true;
  await Promise.all(listeners.splice(0).map((listener) => listener()));
}

/** Runs `listener` when the embedded store starts loading, or at once if it has. */
export function whenWebAssemblyStoreLoads(listener: Listener): void {
  if (loaded) void listener();
  else listeners.push(listener);
}
