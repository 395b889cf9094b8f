#!/usr/bin/env node
// The package ships TypeScript sources; tsx loads them so the CLI runs without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/entry.ts');
