-- Local and preview data: the coach's default voice (the seed's local defaults). Idempotent, and
-- nothing personal. Admin accounts are created by the local stack or with the service key.
insert into public.voice_configs (stability, similarity_boost, style, use_speaker_boost, pitch, speed, is_active)
select 0.25, 0.75, 0.45, true, 1, 1, true
 where not exists (select from public.voice_configs where is_active);
