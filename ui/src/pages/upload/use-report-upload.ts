import { useRef, useState } from 'react';
import type { UploadMetadata } from '../../../../core/api/uploads.js';
import { uploadReport } from '../../api/calls.js';
import { errorText } from '../../api/client.js';
import { analyseReportFile, isJsonFile, type FileAnalysis } from './read-report-file.js';
import type { UploadOutcome } from './upload-outcome.js';

export const NOT_JSON_ALERT = 'Please select JSON files only.';

/** A picked file; `analysis` is null while it is being read. */
export interface DetectedFile {
  key: string;
  file: File;
  analysis: FileAnalysis | null;
}

/** The form fields; blank means "not given" (the report's own values are used). */
export interface UploadFields {
  project: string;
  gitCommit: string;
  gitBranch: string;
}

export interface ReportUpload {
  files: DetectedFile[];
  outcomes: UploadOutcome[] | null;
  /** Set while posting: how many files are done out of how many. */
  progress: { done: number; total: number } | null;
  reading: boolean;
  addFiles(files: readonly File[]): void;
  removeFile(key: string): void;
  upload(fields: UploadFields): Promise<void>;
  clearOutcomes(): void;
}

/**
 * The upload flow (docs/screens.md#upload): files are parsed locally as they are picked, then posted
 * one after the other (a large report at a time keeps the server's memory flat), each result
 * recorded as success or error. `onUploaded` runs once when at least one file was stored.
 */
export function useReportUpload(onUploaded: () => void): ReportUpload {
  const [files, setFiles] = useState<DetectedFile[]>([]);
  const [outcomes, setOutcomes] = useState<UploadOutcome[] | null>(null);
  const [progress, setProgress] = useState<ReportUpload['progress']>(null);
  const nextKey = useRef(0);

  const addFiles = (picked: readonly File[]) => {
    const accepted = picked.filter(isJsonFile);
    if (accepted.length < picked.length) window.alert(NOT_JSON_ALERT);
    if (accepted.length === 0) return;
    const added = accepted.map((file) => ({ key: `file-${nextKey.current++}`, file, analysis: null }));
    setFiles((current) => [...current, ...added]);
    for (const entry of added) {
      void analyseReportFile(entry.file).then((analysis) => {
        setFiles((current) => current.map((f) => (f.key === entry.key ? { ...f, analysis } : f)));
      });
    }
  };

  const removeFile = (key: string) => setFiles((current) => current.filter((f) => f.key !== key));

  const upload = async (fields: UploadFields) => {
    const batch = files.filter((f) => f.analysis !== null);
    if (batch.length === 0 || progress) return;
    setOutcomes([]);
    setProgress({ done: 0, total: batch.length });
    const recorded: UploadOutcome[] = [];
    for (const entry of batch) {
      const outcome = await postFile(entry, fields);
      recorded.push(outcome);
      setOutcomes([...recorded]);
      setProgress({ done: recorded.length, total: batch.length });
    }
    // The uploaded files leave the list so a second click cannot post them twice.
    const posted = new Set(batch.map((f) => f.key));
    setFiles((current) => current.filter((f) => !posted.has(f.key)));
    setProgress(null);
    if (recorded.some((o) => o.ok)) onUploaded();
  };

  return {
    files,
    outcomes,
    progress,
    reading: files.some((f) => f.analysis === null),
    addFiles,
    removeFile,
    upload,
    clearOutcomes: () => setOutcomes(null),
  };
}

async function postFile(entry: DetectedFile, fields: UploadFields): Promise<UploadOutcome> {
  const { key, file, analysis } = entry;
  const base = { key, fileName: file.name };
  if (!analysis || analysis.kind === 'invalid') return { ...base, ok: false, error: analysis?.error ?? `Failed to read ${file.name}` };
  const detected = analysis.kind === 'report' ? analysis : null;
  const metadata: UploadMetadata = {
    project: fields.project.trim() || detected?.project || null,
    gitCommit: fields.gitCommit.trim() || null,
    gitBranch: fields.gitBranch.trim() || null,
    browser: detected?.browser ?? null,
    fileName: file.name,
    fileSize: file.size,
    uploadTime: new Date().toISOString(),
  };
  try {
    const answer = await uploadReport({ testResults: analysis.value, metadata });
    return { ...base, ok: true, runId: answer.runId, testsProcessed: answer.testsProcessed, duplicate: answer.duplicate, status: answer.status };
  } catch (error) {
    console.error(`Upload of ${file.name} failed`, error);
    return { ...base, ok: false, error: errorText(error) };
  }
}
