import type { ServedView, SnapshotView } from "../snapshot/view.ts";
import { snapshotUnavailable } from "./errors.ts";

/** The view to answer from now; directory_unavailable (503) before the first snapshot has loaded. */
export function servedView(served: ServedView): SnapshotView {
  const view = served.current();
  if (view === null) throw snapshotUnavailable();
  return view;
}
