import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { failureText } from "../../api/client";
import { storeKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { useCustomer, usePopup } from "../../lib/session";
import { deleteReview, editReview, myReviewOptions, writeReview, type MyReview } from "./api/reviews";

/** The text limits the server keeps (docs/reviews.md, "Who may write"). */
export const MIN_TEXT = 10;
export const MAX_TEXT = 2000;

/**
 * "Your review" on /reviews: signed out, a button to sign in; signed in, the member's review with
 * its status (held: why), or the form to write one; edit and delete.
 */
export function MyReviewSection({ storeId }: { storeId: number }) {
  const { loginState, customer } = useCustomer();
  const { openPopup } = usePopup();
  if (loginState === "unknown") return null;
  return (
    <section aria-labelledby="my-review" className="mt-8 rounded-lg border border-gray-200 p-4">
      <h2 id="my-review" className="text-lg font-semibold text-gray-900">
        Your review
      </h2>
      {!customer ? (
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <p className="text-gray-700">Members with a proven email address may review this store.</p>
          <Button variant="outline" onClick={() => openPopup("sign-in")}>
            Sign in to write a review
          </Button>
        </div>
      ) : !customer.email_verified ? (
        <p className="mt-2 text-gray-700">Prove your email address first: follow the link we mailed you, or ask for a new one in your profile.</p>
      ) : (
        <Mine storeId={storeId} memberId={customer.id} />
      )}
    </section>
  );
}

function Mine({ storeId, memberId }: { storeId: number; memberId: number }) {
  const queryClient = useQueryClient();
  const options = myReviewOptions(storeId, memberId);
  const mine = useQuery(options);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState("");
  const refresh = (review: MyReview | null, message: string) => {
    queryClient.setQueryData(options.queryKey, review);
    // The summary, the list and the panel's chart all hang under the store's key.
    void queryClient.invalidateQueries({ queryKey: storeKeys.detail(storeId) });
    setEditing(false);
    setNotice(message);
  };
  const remove = useMutation({
    mutationFn: () => deleteReview(storeId),
    onSuccess: () => refresh(null, "Your review was deleted."),
  });
  if (mine.isPending) return <p className="mt-2 text-gray-700">Loading your review…</p>;
  if (mine.isError) return <FormError>{failureText(mine.error)}</FormError>;
  const review = mine.data;
  return (
    <div className="mt-2 flex flex-col gap-3">
      {notice && (
        <p role="status" className="text-sm text-emerald-800">
          {notice}
        </p>
      )}
      {review && !editing ? (
        <>
          <ReviewStatus review={review} />
          <p className="text-gray-800">
            <span className="font-medium">{review.rating} of 5 stars.</span> <span className="whitespace-pre-line">{review.content}</span>
          </p>
          {remove.isError && <FormError>{failureText(remove.error)}</FormError>}
          <div className="flex gap-2">
            {review.status !== "Removed" && (
              <Button variant="outline" onClick={() => setEditing(true)}>
                Edit your review
              </Button>
            )}
            <Button variant="outline" disabled={remove.isPending} onClick={() => remove.mutate()}>
              Delete your review
            </Button>
          </div>
        </>
      ) : (
        <ReviewForm
          storeId={storeId}
          review={review}
          onCancel={review ? () => setEditing(false) : undefined}
          onSaved={(saved) =>
            refresh(saved, saved.status === "Held" ? "Saved: a moderator will read it before it is published." : review ? "Your review was updated." : "Your review is published.")
          }
        />
      )}
    </div>
  );
}

function ReviewStatus({ review }: { review: MyReview }) {
  if (review.status === "Held") {
    return (
      <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
        <span className="font-medium">Waiting for a moderator.</span> {review.held_reason}
      </p>
    );
  }
  if (review.status === "Removed") {
    return (
      <p className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900">
        <span className="font-medium">A moderator removed this review:</span> {review.held_reason}
      </p>
    );
  }
  return <p className="text-sm text-gray-700">Published{review.edited_at ? ", edited" : ""}.</p>;
}

function ReviewForm({
  storeId,
  review,
  onSaved,
  onCancel,
}: {
  storeId: number;
  review: MyReview | null;
  onSaved: (saved: MyReview) => void;
  onCancel?: () => void;
}) {
  const [rating, setRating] = useState(review?.rating ?? 0);
  const [content, setContent] = useState(review?.content ?? "");
  const [error, setError] = useState("");
  const save = useMutation({
    mutationFn: () => (review ? editReview(storeId, { rating, content }) : writeReview(storeId, { rating, content })),
    onSuccess: onSaved,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const length = [...content.trim()].length;
    if (rating < 1) return setError("Choose a rating from 1 to 5 stars.");
    if (length < MIN_TEXT || length > MAX_TEXT) return setError(`Write ${MIN_TEXT} to ${MAX_TEXT} characters.`);
    setError("");
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3">
      <fieldset className="flex flex-col gap-1">
        <legend className="text-sm font-medium text-gray-900">Your rating</legend>
        <div className="flex flex-wrap gap-3">
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} className="flex items-center gap-1 text-sm text-gray-900">
              <input type="radio" name="rating" value={n} checked={rating === n} onChange={() => setRating(n)} />
              {n === 1 ? "1 star" : `${n} stars`}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="flex flex-col gap-1 text-sm font-medium text-gray-900">
        Your review
        <textarea
          value={content}
          maxLength={MAX_TEXT}
          rows={5}
          onChange={(e) => setContent(e.target.value)}
          className="rounded-md border border-gray-400 px-3 py-2 font-normal text-gray-900 focus-visible:outline-2 focus-visible:outline-emerald-700"
        />
      </label>
      <p className="text-xs text-gray-600">
        {MIN_TEXT} to {MAX_TEXT} characters. Phone numbers, email addresses and health or quit-smoking claims are held for a moderator.
      </p>
      {error && <FormError>{error}</FormError>}
      {save.isError && <FormError>{failureText(save.error)}</FormError>}
      <div className="flex gap-2">
        <Button type="submit" disabled={save.isPending}>
          {review ? "Save changes" : "Publish review"}
        </Button>
        {onCancel && (
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
