import { DocumentList } from './DocumentList';
import { KnowledgeSearch } from './KnowledgeSearch';
import { UploadArea } from './UploadArea';
import { useDocuments } from './useDocuments';

/** The Wissensdatenbank tab: upload, the live document list and the search box. */
export default function KnowledgePanel({ onDocumentSettled }: { onDocumentSettled: () => void }) {
  const documents = useDocuments(onDocumentSettled);
  return (
    <div className="space-y-10">
      <UploadArea />
      <DocumentList state={documents} />
      <KnowledgeSearch />
    </div>
  );
}
