-- The live coach plays raw PCM from its first bytes (the tts function's `format: 'pcm'`), so its
-- cached greeting is PCM too: the cache bucket accepts that type beside MP3.

update storage.buckets
  set allowed_mime_types = array['audio/mpeg', 'audio/pcm']
  where id = 'tts-cache';
