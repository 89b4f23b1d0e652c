-- The knowledge base's PDFs are private. The coach quotes a document's title, and a public bucket
-- would then leave only the upload's millisecond timestamp between a visitor and the whole file.
-- The bucket stops serving public downloads (Storage's public route refuses objects of a private
-- bucket), existing objects included: their access follows the bucket. Admins keep reading them
-- through the select policy of 20261122000600_storage.sql: the Storage API's authenticated
-- download and signed URLs that expire, which is how the admin area opens a document.

update storage.buckets set public = false where id = 'document-uploads';

-- A document's url names its file on the authenticated route (it works with an admin's token or
-- as the source of a signed URL), no longer a public link.
update public.documents
   set url = replace(url, '/storage/v1/object/public/document-uploads/', '/storage/v1/object/authenticated/document-uploads/')
 where url like '%/storage/v1/object/public/document-uploads/%';

comment on column public.documents.url is
  'URL of the file on the Storage API''s authenticated route (the bucket is private); the admin area opens it through a signed URL.';
