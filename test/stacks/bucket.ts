import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CreateBucketCommand, HeadObjectCommand, ListObjectsV2Command, NotFound, S3Client, type HeadObjectCommandOutput } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

const BUCKET = "tollgate-files";

export interface Bucket {
  /** Billing's settings for keeping files here. */
  env: Record<string, string>;
  /** An object's headers, or null when there is none under `key`. */
  head(key: string): Promise<HeadObjectCommandOutput | null>;
  /** Every key in the bucket. */
  keys(): Promise<string[]>;
  stop(): Promise<void>;
}

/** A real S3 protocol peer on loopback (s3rver), so the pre-signed multipart URLs are exercised for real, with one empty bucket. */
export async function startBucket(): Promise<Bucket> {
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: mkdtempSync(path.join(tmpdir(), "tollgate-s3-")) });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  return {
    env: { FILE_STORAGE: "s3", S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, S3_FORCE_PATH_STYLE: "true", S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER" },
    head: (key) =>
      client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).catch((error: unknown) => {
        if (error instanceof NotFound) return null;
        throw error;
      }),
    keys: async () => ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])),
    stop: () => server.close(),
  };
}
