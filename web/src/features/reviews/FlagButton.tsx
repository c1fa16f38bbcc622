import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { failureText } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { flagReview, type FlagReason } from "./api/reviews";

/** The reasons anyone may flag a review for (GET /api/reviews/policy lists them too). */
export const FLAG_REASONS: [FlagReason, string][] = [
  ["off-topic", "Off-topic"],
  ["hateful", "Hateful, harassing or threatening"],
  ["personal-information", "Personal information"],
  ["health-claim", "Health or quit-smoking claim"],
  ["conflict-of-interest", "Conflict of interest"],
  ["sale-to-minor", "Describes a sale to a minor"],
];

/** "Flag" under a review: a reason, then sent to the moderators. */
export function FlagButton({ reviewId }: { reviewId: number }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<FlagReason>("off-topic");
  const id = useId();
  const flag = useMutation({ mutationFn: () => flagReview(reviewId, reason) });
  if (flag.isSuccess) {
    return (
      <p role="status" className="mt-2 text-sm text-gray-700">
        Thank you: a moderator will read this review.
      </p>
    );
  }
  if (!open) {
    return (
      <Button variant="ghost" className="mt-1 px-0 text-xs text-gray-600 underline" onClick={() => setOpen(true)}>
        Flag this review
      </Button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    flag.mutate();
  };
  return (
    <form onSubmit={submit} className="mt-2 flex flex-wrap items-end gap-2">
      <label htmlFor={id} className="flex flex-col gap-1 text-sm text-gray-900">
        Why flag it?
        <select id={id} value={reason} onChange={(e) => setReason(e.target.value as FlagReason)} className="rounded-md border border-gray-400 px-2 py-1">
          {FLAG_REASONS.map(([code, label]) => (
            <option key={code} value={code}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" variant="outline" disabled={flag.isPending}>
        Send flag
      </Button>
      <Button variant="ghost" onClick={() => setOpen(false)}>
        Cancel
      </Button>
      {flag.isError && <FormError>{failureText(flag.error)}</FormError>}
    </form>
  );
}
