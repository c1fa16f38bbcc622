import { useId, useRef, useState, type FormEvent } from "react";
import { failureText } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { uploadPhoto } from "./api/upload-photo";
import { PHOTO_CHOOSE, PHOTO_SIZE, PHOTO_TYPE, PHOTO_UPLOADED } from "./messages";
import type { BusinessStore } from "./types";
import { Notice } from "../../components/ui/outcome";

const TYPES = ["image/jpeg", "image/png", "image/webp"];
export const MAX_PHOTO_BYTES = 8 << 20;

/** The browser's check of a chosen file, with the server's words (internal/photos). */
export function photoProblem(file: { type: string; size: number } | null): string | null {
  if (!file || file.size === 0) return PHOTO_CHOOSE;
  if (!TYPES.includes(file.type)) return PHOTO_TYPE;
  if (file.size > MAX_PHOTO_BYTES) return PHOTO_SIZE;
  return null;
}

/** The store photo: the current one, a file chooser with a preview, and the upload with the server's messages. */
export function PhotoUpload({ store, onUploaded }: { store: BusinessStore; onUploaded: (image: string) => void }) {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState("");
  const [current, setCurrent] = useState<{ image: string; srcset?: string }>({ image: store.image });
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);

  const chosen = useRef<File | null>(null);

  const choose = (f: File | null) => {
    setNotice("");
    const problem = f ? photoProblem(f) : null;
    const next = problem ? null : f;
    setError(problem);
    setFile(next);
    setPreview("");
    chosen.current = next;
    if (!next) return;
    const reader = new FileReader();
    reader.onload = () => {
      // A later choice wins over a slow read of an earlier one.
      if (chosen.current === next && typeof reader.result === "string") setPreview(reader.result);
    };
    reader.readAsDataURL(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = photoProblem(file);
    if (problem || !file) return setError(problem);
    setBusy(true);
    setError(null);
    setNotice("");
    try {
      const answer = await uploadPhoto(store.id, file);
      setCurrent(answer);
      setFile(null);
      setPreview("");
      chosen.current = null;
      setNotice(PHOTO_UPLOADED);
      onUploaded(answer.image);
    } catch (e) {
      setError(failureText(e, "The server could not be reached. Please try again."));
    }
    setBusy(false);
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-label="Store photo" className="flex flex-col gap-3 rounded-md border border-gray-200 bg-white p-4">
      <h3 className="text-base font-semibold text-gray-900">Store photo</h3>
      <p className="text-sm text-gray-700">JPEG, PNG or WebP, at most 8 MB. Location and camera details are removed. Published at once.</p>
      {current.image ? (
        <img src={current.image} srcSet={current.srcset} sizes={current.srcset ? "320px" : undefined} alt="Current store photo" className="h-40 w-auto self-start rounded-md object-cover" />
      ) : (
        <p className="text-sm text-gray-600">No photo yet.</p>
      )}
      <label htmlFor={inputId} className="text-sm font-medium text-gray-900">
        Choose a photo
      </label>
      <input
        id={inputId}
        type="file"
        accept={TYPES.join(",")}
        aria-invalid={error ? true : undefined}
        onChange={(e) => choose(e.target.files?.[0] ?? null)}
        className="text-sm"
      />
      {preview && <img src={preview} alt="Preview of the chosen photo" className="h-40 w-auto self-start rounded-md object-cover" />}
      {error && <FormError>{error}</FormError>}
      <Notice notice={notice} />
      <Button type="submit" disabled={busy} className="self-start">
        Upload photo
      </Button>
    </form>
  );
}
