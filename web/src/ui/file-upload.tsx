import { useId, useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { ApiFailure, describeError, failureOf, request } from "../api/client";
import type { FileRead, FileUpload, RequestBody } from "../api/wire";
import { Alert } from "./components";

const messages = defineMessages({
  choose: { id: "ui.fileUpload.choose", defaultMessage: "Choose a file" },
  noneChosen: { id: "ui.fileUpload.noneChosen", defaultMessage: "No file chosen" },
  uploading: defineMessage<{ name: string; percent: number }>({ id: "ui.fileUpload.uploading", defaultMessage: "Uploading {name}: {percent, number, ::percent}" }),
  uploaded: defineMessage<{ name: string }>({ id: "ui.fileUpload.uploaded", defaultMessage: "{name} is uploaded." }),
  partRefused: defineMessage<{ status: number }>({ id: "ui.fileUpload.partRefused", defaultMessage: "The upload stopped (status {status}). Try again." }),
});

/** What the files API serves: downloadables, product media and organization avatars. */
export type FileService = FileUpload["service"];
/** What the console reads of an uploaded file (Polar's FileRead). */
export type UploadedFile = FileRead;
type UploadPart = FileUpload["upload"]["parts"][number];

/** S3 takes parts of at least 5 MiB but the last; 10 MiB keeps a large file to few requests. */
const PART_SIZE = 10 * 1024 * 1024;

async function sha256Base64(blob: Blob): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await blob.arrayBuffer()));
  return btoa(String.fromCharCode(...digest));
}

/** Sends one part with XMLHttpRequest, the one browser API that reports an upload's progress; resolves with its ETag. */
function sendPart(part: UploadPart, body: Blob, onSent: (bytes: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", part.url);
    for (const [name, value] of Object.entries(part.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onSent(event.loaded);
    xhr.onload = () => {
      const etag = xhr.getResponseHeader("etag");
      if (xhr.status >= 200 && xhr.status < 300 && etag) resolve(etag);
      else reject(new ApiFailure({ status: xhr.status, statusText: xhr.statusText, body: xhr.responseText }));
    };
    xhr.onerror = () => reject(new ApiFailure({ status: 0, statusText: "Network error", body: null }));
    xhr.send(body);
  });
}

/**
 * Uploads a file as the files API takes it: declared in parts with their checksums, each part sent
 * to its signed URL, then marked uploaded. `onProgress` hears the share of bytes sent, 0 to 1.
 */
export async function uploadFile(file: File, service: FileService, organizationId: string, onProgress: (share: number) => void): Promise<UploadedFile> {
  const chunks = Array.from({ length: Math.max(1, Math.ceil(file.size / PART_SIZE)) }, (_, index) => {
    const start = index * PART_SIZE;
    return { number: index + 1, chunk_start: start, chunk_end: Math.min(file.size, start + PART_SIZE) - 1, blob: file.slice(start, start + PART_SIZE) };
  });
  const parts = await Promise.all(chunks.map(async ({ blob, ...part }) => ({ ...part, checksum_sha256_base64: await sha256Base64(blob) })));
  const started = await request<FileUpload>("/v1/files/", {
    method: "POST",
    body: { organization_id: organizationId, service, name: file.name, mime_type: file.type || "application/octet-stream", size: file.size, upload: { parts } },
  });
  const sent = new Map<number, number>();
  const completed: { number: number; checksum_etag: string; checksum_sha256_base64: string | null }[] = [];
  for (const part of started.upload.parts) {
    const chunk = chunks.find((candidate) => candidate.number === part.number);
    if (!chunk) continue;
    const etag = await sendPart(part, chunk.blob, (bytes) => {
      sent.set(part.number, bytes);
      onProgress([...sent.values()].reduce((sum, value) => sum + value, 0) / file.size);
    });
    completed.push({ number: part.number, checksum_etag: etag, checksum_sha256_base64: part.checksum_sha256_base64 });
  }
  return request<UploadedFile>(`/v1/files/${started.id}/uploaded`, { method: "POST", body: { id: started.upload.id, path: started.upload.path, parts: completed } satisfies RequestBody<"/v1/files/{id}/uploaded", "post"> });
}

type UploadState = { phase: "idle" } | { phase: "uploading"; name: string; share: number } | { phase: "done"; name: string } | { phase: "failed"; message: string };

/** A file picker that uploads what is chosen at once, with a progress bar, and hands over the uploaded file. */
export function FileUpload({ service, organizationId, accept, label, onUploaded }: { service: FileService; organizationId: string; accept?: string; label?: string; onUploaded: (file: UploadedFile) => void }) {
  const { formatMessage } = useIntl();
  const id = useId();
  const [state, setState] = useState<UploadState>({ phase: "idle" });
  const upload = async (file: File) => {
    setState({ phase: "uploading", name: file.name, share: 0 });
    let uploaded: UploadedFile;
    try {
      uploaded = await uploadFile(file, service, organizationId, (share) => setState({ phase: "uploading", name: file.name, share }));
    } catch (reason) {
      const failure = failureOf(reason);
      const partRefused = failure.status !== 0 && typeof failure.body === "string";
      return setState({ phase: "failed", message: partRefused ? formatMessage(messages.partRefused, { status: failure.status }) : describeError(failure) });
    }
    setState({ phase: "done", name: file.name });
    onUploaded(uploaded);
  };
  return (
    <div className="file-upload">
      {/* The browser's own picker speaks the browser's language, not the page's: it stays, out of sight, behind a button of ours. */}
      <div className="file-picker">
        <input
          id={id}
          className="sr-only"
          type="file"
          accept={accept}
          disabled={state.phase === "uploading"}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (file) void upload(file);
          }}
        />
        <label htmlFor={id} className={`button button-secondary${state.phase === "uploading" ? " is-disabled" : ""}`}>
          {label ?? formatMessage(messages.choose)}
        </label>
        {state.phase === "idle" && <span className="muted">{formatMessage(messages.noneChosen)}</span>}
      </div>
      {state.phase === "uploading" && (
        <div className="upload-progress" role="status">
          <progress max={1} value={state.share} aria-label={formatMessage(messages.uploading, { name: state.name, percent: state.share })} />
          <span>{formatMessage(messages.uploading, { name: state.name, percent: state.share })}</span>
        </div>
      )}
      {state.phase === "done" && <p role="status">{formatMessage(messages.uploaded, { name: state.name })}</p>}
      {state.phase === "failed" && <Alert tone="error">{state.message}</Alert>}
    </div>
  );
}
