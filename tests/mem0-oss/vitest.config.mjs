// vitest for mem0's own OSS tests, ported (tests/mem0-oss/README.md). jest-compatible globals; jest's default
// timeout (5 s) unless a file calls jest.setTimeout. Run through run.mjs, which also type-checks.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globals: true,
    include: ["v3/**/*.test.ts", "v2/**/*.test.ts"],
    setupFiles: ["./support/setup.ts"],
    testTimeout: 5000,
    hookTimeout: 5000,
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
