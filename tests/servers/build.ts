import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";

/** The servers these tests start are the built app's (`next start`): built first if its sources changed. */
export default function setup() {
  buildIfNeeded();
}
