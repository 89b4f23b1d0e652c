import 'filepond/dist/filepond.min.css';
import type { FilePondErrorDescription, FilePondFile, FilePondOptions, ProcessServerConfigFunction, RevertServerConfigFunction } from 'filepond';
import FilePondPluginFileValidateType from 'filepond-plugin-file-validate-type';
import { useMemo, useRef, useState } from 'react';
import { FilePond, FileStatus, registerPlugin } from 'react-filepond';
import { useNavigate } from 'react-router';
import { getHref } from '../../../config/routes';
import { useT } from '../../../i18n/language';
import { DocumentError, documentMessages, revertUpload } from '../../../services/documents';
import { Notice } from '../Notice';
import { PanelSection } from '../Panel';
import { rememberReturnPath } from '../returnPath';
import { uploadToKnowledgeBase } from './processUpload';

registerPlugin(FilePondPluginFileValidateType);

/** The seed's widget limits: at most 3 files at once, PDF and any video accepted by the widget. */
export const MAX_FILES = 3;
const ACCEPTED_TYPES = ['application/pdf', 'video/*'];
/** Finished items leave the widget after this long (the list below keeps the documents). */
const CLEAR_AFTER_MS = 8_000;

interface FileProblem {
  id: string;
  name: string;
  message: string;
}

/**
 * 'Dokumente hochladen': FilePond with our own process/revert functions. Each file goes its own
 * way: a failed upload aborts that file only (the others carry on), and its catalogue message shows
 * in the widget and in the list under it.
 */
export function UploadArea() {
  const { t } = useT('admin');
  const navigate = useNavigate();
  const [tooMany, setTooMany] = useState(false);
  const [problems, setProblems] = useState<FileProblem[]>([]);
  const pond = useRef<FilePond>(null);

  const options = useMemo<FilePondOptions>(() => {
    const process: ProcessServerConfigFunction = (_field, file, _metadata, load, error, progress, abort) => {
      const controller = new AbortController();
      const name = 'name' in file ? file.name : 'document.pdf';
      const asFile = file instanceof File ? file : new File([file], name, { type: file.type });
      uploadToKnowledgeBase(asFile, {
        signal: controller.signal,
        onProgress: (loaded, total) => progress(true, loaded, total),
      })
        .then(({ storagePath }) => load(storagePath))
        .catch((caught: unknown) => {
          if (controller.signal.aborted) return;
          const message = caught instanceof DocumentError ? caught.message : documentMessages.upload;
          // The seed: the failed file's upload is aborted and logged.
          console.error(`[admin] upload of ${name} failed:`, caught);
          error(message);
          if (message === documentMessages.notAuthenticated) {
            rememberReturnPath(`${window.location.pathname}${window.location.search}`);
            void navigate(getHref('adminLogin', 'de'), { replace: true });
          }
        });
      return {
        abort: () => {
          controller.abort();
          abort();
        },
      };
    };
    const revert: RevertServerConfigFunction = (storagePath, load, error) => {
      revertUpload(String(storagePath))
        .then(() => load())
        .catch((caught: unknown) => {
          console.error('[admin] revert failed:', caught);
          error(documentMessages.revert);
          const path = String(storagePath);
          setProblems((list) => [
            ...list.filter((item) => item.id !== path),
            { id: path, name: path.replace(/^\d+-/, ''), message: documentMessages.revert },
          ]);
        });
    };
    return {
      allowMultiple: true,
      maxFiles: MAX_FILES,
      maxParallelUploads: MAX_FILES,
      acceptedFileTypes: ACCEPTED_TYPES,
      credits: false,
      server: { process, revert },
      labelIdle: t('knowledge.pond.idle'),
      labelFileTypeNotAllowed: t('knowledge.pond.invalidType'),
      fileValidateTypeLabelExpectedTypes: t('knowledge.pond.expectedTypes'),
      labelFileProcessing: t('knowledge.pond.processing'),
      labelFileProcessingComplete: t('knowledge.pond.processingComplete'),
      labelFileProcessingAborted: t('knowledge.pond.processingAborted'),
      labelFileProcessingError: (error: FilePondErrorDescription) => error.body || t('knowledge.pond.processingError'),
      labelFileProcessingRevertError: t('knowledge.pond.revertError'),
      labelFileWaitingForSize: t('knowledge.pond.waiting'),
      labelFileLoading: t('knowledge.pond.loading'),
      labelFileLoadError: t('knowledge.pond.loadError'),
      labelTapToCancel: t('knowledge.pond.tapToCancel'),
      labelTapToRetry: t('knowledge.pond.tapToRetry'),
      labelTapToUndo: t('knowledge.pond.tapToUndo'),
      labelButtonRemoveItem: t('knowledge.pond.remove'),
      labelButtonAbortItemLoad: t('knowledge.pond.abort'),
      labelButtonAbortItemProcessing: t('knowledge.pond.abort'),
      labelButtonRetryItemLoad: t('knowledge.pond.retry'),
      labelButtonRetryItemProcessing: t('knowledge.pond.retry'),
      labelButtonUndoItemProcessing: t('knowledge.pond.undo'),
    };
  }, [t, navigate]);

  return (
    <PanelSection title={t('knowledge.uploadHeading')} lead={t('knowledge.uploadLead')}>
      {tooMany ? <Notice tone="error">{t('knowledge.maxFilesWarning')}</Notice> : null}
      <FilePond
        {...options}
        ref={pond}
        name="documents"
        onaddfilestart={() => setTooMany(false)}
        onwarning={(warning: { body?: string } | null) => {
          if (warning?.body === 'Max files') setTooMany(true);
        }}
        onprocessfile={(error: FilePondErrorDescription | null, file: FilePondFile) => {
          if (error) {
            setProblems((list) => [...list.filter((item) => item.id !== file.id), { id: file.id, name: file.filename, message: error.body }]);
            return;
          }
          setProblems((list) => list.filter((item) => item.id !== file.id));
          window.setTimeout(() => {
            // Only when still there and done (not reverted, removed or failed meanwhile); the stored file stays.
            const current = pond.current?.getFiles().find((item) => item.id === file.id);
            if (current?.status === FileStatus.PROCESSING_COMPLETE) pond.current?.removeFile(file.id, { revert: false });
          }, CLEAR_AFTER_MS);
        }}
        onremovefile={(_error: FilePondErrorDescription | null, file: FilePondFile) =>
          setProblems((list) => list.filter((item) => item.id !== file.id))
        }
      />
      {problems.length > 0 ? (
        <Notice tone="error">
          <ul className="space-y-1">
            {problems.map((problem) => (
              <li key={problem.id}>
                <span className="font-semibold">{problem.name}:</span> {problem.message}
              </li>
            ))}
          </ul>
        </Notice>
      ) : null}
    </PanelSection>
  );
}
