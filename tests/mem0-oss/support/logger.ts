// Stand-in for mem0's internal logger (mem0-ts/src/oss/src/utils/logger.ts, not part of mem0's public API), which
// memory.crud.test.ts spies on to see update()'s deprecation warning. memwasm has no logger object: it warns
// through console.warn, and support/setup.ts routes console.warn here, so `jest.spyOn(logger, "warn")` sees
// every warning the package prints. Same shape and output as mem0's.
export interface Logger {
  info: (message: string) => void;
  error: (message: string) => void;
  debug: (message: string) => void;
  warn: (message: string) => void;
}

const consoleWarn = console.warn.bind(console);

export const logger: Logger = {
  info: (message: string) => console.log(`[INFO] ${message}`),
  error: (message: string) => console.error(`[ERROR] ${message}`),
  debug: (message: string) => console.debug(`[DEBUG] ${message}`),
  warn: (message: string) => consoleWarn(`[WARN] ${message}`),
};
