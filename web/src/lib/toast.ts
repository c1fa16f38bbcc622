import { useSyncExternalStore } from "react";

// The app's notifications (one Toaster, mounted by App): a short text that outlives the screen
// that shows it (the reset page moves to / right after its success text). Anything can raise one.

export type ToastTone = "success" | "error";

export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  description?: string;
}

/** At most this many at once; a new one pushes the oldest out. */
const MAX_TOASTS = 3;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

function show(tone: ToastTone, title: string, description?: string): number {
  const id = nextId++;
  // A confirmation supersedes the failures shown before it: every failure toast is the outcome of
  // an attempt the user then made again and won (a wrong old password, then "Password updated"),
  // so a red one beside the green one would contradict it (issue 39, m22).
  const kept = tone === "success" ? toasts.filter((t) => t.tone !== "error") : toasts;
  publish([...kept, { id, tone, title, description }].slice(-MAX_TOASTS));
  return id;
}

export const toast = {
  /** A confirmation, read out politely (role="status"). */
  success: (title: string, description?: string) => show("success", title, description),
  /** A failure, read out at once (role="alert"). */
  error: (title: string, description?: string) => show("error", title, description),
};

export function dismissToast(id: number) {
  publish(toasts.filter((t) => t.id !== id));
}

/** Removes every toast (tests, between cases). */
export function clearToasts() {
  publish([]);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const snapshot = () => toasts;

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
