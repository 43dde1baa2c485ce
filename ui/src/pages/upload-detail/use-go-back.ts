import { useNavigate } from 'react-router-dom';

/**
 * Back to where the reader came from; a run opened from a link or a fresh tab has no history
 * entry in this app, so it goes to the upload list instead of leaving the app.
 */
export function useGoBack(): () => void {
  const navigate = useNavigate();
  return () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/upload');
  };
}
