import { api, unwrap } from "../../../api/client";

/**
 * POST business/stores/{id}/photo: the file itself is the body, with its type. 415 for a type the
 * server does not take, 413 past 8 MB, 400 for a damaged file, each with the server's message.
 */
export async function uploadPhoto(id: number, file: Blob) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return unwrap(
    await api.POST("/business/stores/{id}/photo", {
      params: { path: { id } },
      // openapi-fetch would JSON-encode the body: send the bytes as they are.
      body: bytes as unknown as string,
      bodySerializer: (b: unknown) => b as BodyInit,
      headers: { "Content-Type": file.type },
      credentials: "include",
    }),
  );
}
