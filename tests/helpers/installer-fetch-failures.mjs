// Loaded into the `skills` installer's process (tests/helpers/skills-installer.ts): the installer
// drops a file it could not fetch without a word, so each fetch that failed is said here, on one
// line starting with "fetch failed:", with the status or the error and how long it took. The
// installer itself is unchanged; a test that finds a file missing can say which request failed and how.
const fetchOriginal = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const started = Date.now();
  const url = String(input instanceof Request ? input.url : input);
  try {
    const response = await fetchOriginal(input, init);
    if (!response.ok) process.stderr.write(`fetch failed: ${url}: HTTP ${response.status} after ${Date.now() - started} ms\n`);
    return response;
  } catch (error) {
    const cause = error?.cause ? ` (${error.cause.code ?? ""} ${error.cause.message ?? ""})` : "";
    process.stderr.write(`fetch failed: ${url}: ${error?.message}${cause} after ${Date.now() - started} ms\n`);
    throw error;
  }
};
