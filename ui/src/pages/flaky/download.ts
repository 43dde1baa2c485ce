/** Saves a blob made in the browser (the Trends tab's exports) under `name`. */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy long before this.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
