import type { ReportPayload } from "../api/report-store";

/** The reasons a shopper can pick, in the order the form lists them. */
export const REPORT_REASONS: { value: ReportPayload["reason"]; label: string }[] = [
  { value: "wrong_hours", label: "Wrong hours" },
  { value: "permanently_closed", label: "Permanently closed" },
  { value: "wrong_location", label: "Wrong location" },
  { value: "wrong_phone", label: "Wrong phone" },
  { value: "other", label: "Other" },
];

export const NOTE_MAX = 500;
export const REASON_REQUIRED = "Choose what is wrong";
export const NOTE_TOO_LONG = "The note should be at most 500 characters";
export const REPORT_SENT = "Thanks! We'll check this store.";
