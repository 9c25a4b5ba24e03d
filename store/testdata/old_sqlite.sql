-- A database made by the code before numbered migrations (GORM AutoMigrate),
-- with a user ada (password Lovelace1815), an admin, a read-only API token,
-- an uploaded image and an article. Generated, not written by hand.
-- token: a7364d57faf32df4bbfb1bca4e5a4fb4a22a9f02b33b413066a3715b6b8f0c6cd2b0499d4b12e9ff45f7f7bc297e21100f90ebaeedcec260c1ef6214ca27e41bfd9286d38abb83745ee9bee86a0828b8a1c502f6eebca332da86a062d93ae5ffc3d0a0396db8e440d130476507793951e53bfafb57884f34c576c7b2cc941925
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE `stratum_meta` (`key` text,`value` text NOT NULL,PRIMARY KEY (`key`));
INSERT INTO stratum_meta VALUES('auth:schema','auth-1');
INSERT INTO stratum_meta VALUES('secret:JWT_SECRET','50dP/8Vd21jZV9lAieYAAMqW7R89mh82/7l+QHyZBaI=');
INSERT INTO stratum_meta VALUES('secret:ADMIN_JWT_SECRET','1IQiQtKbxK2EQZAtksjuQl9PZqLEpWRr7bu40vbDCyA=');
INSERT INTO stratum_meta VALUES('secret:API_TOKEN_SALT','ZqWwYDR/uPX2VHwunvfCNArFjeBeDSGzgY/S6q81XW0=');
CREATE TABLE `stratum_definitions` (`uid` text,`kind` text NOT NULL,`body` text NOT NULL,`updated_at` datetime,PRIMARY KEY (`uid`));
CREATE TABLE `stratum_counts` (`tbl` text,`published` numeric,`locale` text,`n` integer NOT NULL,PRIMARY KEY (`tbl`,`published`,`locale`));
INSERT INTO stratum_counts VALUES('articles',0,'',1);
INSERT INTO stratum_counts VALUES('articles',1,'',1);
CREATE TABLE `stratum_versions` (`tbl` text,`v` integer NOT NULL,PRIMARY KEY (`tbl`));
INSERT INTO stratum_versions VALUES('articles',1);
CREATE TABLE IF NOT EXISTS "articles" (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	document_id TEXT NOT NULL,
	locale TEXT NOT NULL DEFAULT '',
	published_at TEXT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	created_by_id INTEGER NULL,
	updated_by_id INTEGER NULL,
	data TEXT NOT NULL DEFAULT '{}',
	large TEXT NOT NULL DEFAULT '{}',
	extra TEXT NOT NULL DEFAULT '{}');
INSERT INTO articles VALUES(1,'hnsv695xvfidhvdffn4vswfg','',NULL,'2026-11-23T21:38:25.703Z','2026-11-23T21:38:25.703Z',NULL,NULL,'{"title":"Written before","slug":"written-before","contactEmail":null,"kind":"news","views":0,"shares":null,"rating":null,"price":null,"publishDate":null,"publishTime":null,"scheduledAt":null,"featured":false}','{"summary":null,"body":null,"content":null,"metadata":null}','{"cover":1}');
INSERT INTO articles VALUES(2,'hnsv695xvfidhvdffn4vswfg','','2026-11-23T21:38:25.703Z','2026-11-23T21:38:25.703Z','2026-11-23T21:38:25.703Z',NULL,NULL,'{"title":"Written before","slug":"written-before","contactEmail":null,"kind":"news","views":0,"shares":null,"rating":null,"price":null,"publishDate":null,"publishTime":null,"scheduledAt":null,"featured":false}','{"summary":null,"body":null,"content":null,"metadata":null}','{"cover":1}');
CREATE TABLE IF NOT EXISTS "authors" (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	document_id TEXT NOT NULL,
	locale TEXT NOT NULL DEFAULT '',
	published_at TEXT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	created_by_id INTEGER NULL,
	updated_by_id INTEGER NULL,
	data TEXT NOT NULL DEFAULT '{}',
	large TEXT NOT NULL DEFAULT '{}',
	extra TEXT NOT NULL DEFAULT '{}');
CREATE TABLE IF NOT EXISTS "categories" (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	document_id TEXT NOT NULL,
	locale TEXT NOT NULL DEFAULT '',
	published_at TEXT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	created_by_id INTEGER NULL,
	updated_by_id INTEGER NULL,
	data TEXT NOT NULL DEFAULT '{}',
	large TEXT NOT NULL DEFAULT '{}',
	extra TEXT NOT NULL DEFAULT '{}');
CREATE TABLE IF NOT EXISTS "globals" (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	document_id TEXT NOT NULL,
	locale TEXT NOT NULL DEFAULT '',
	published_at TEXT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	created_by_id INTEGER NULL,
	updated_by_id INTEGER NULL,
	data TEXT NOT NULL DEFAULT '{}',
	large TEXT NOT NULL DEFAULT '{}',
	extra TEXT NOT NULL DEFAULT '{}');
CREATE TABLE IF NOT EXISTS "tags" (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	document_id TEXT NOT NULL,
	locale TEXT NOT NULL DEFAULT '',
	published_at TEXT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	created_by_id INTEGER NULL,
	updated_by_id INTEGER NULL,
	data TEXT NOT NULL DEFAULT '{}',
	large TEXT NOT NULL DEFAULT '{}',
	extra TEXT NOT NULL DEFAULT '{}');
CREATE TABLE `up_roles` (`id` integer PRIMARY KEY AUTOINCREMENT,`document_id` text NOT NULL,`name` text NOT NULL,`description` text NOT NULL DEFAULT "",`type` text NOT NULL,`created_at` datetime NOT NULL,`updated_at` datetime NOT NULL);
INSERT INTO up_roles VALUES(1,'v4s1grhzhzd6mpgmehpj45r6','Authenticated','Default role given to authenticated user.','authenticated','2026-11-23 21:38:25.453+00:00','2026-11-23 21:38:25.453+00:00');
INSERT INTO up_roles VALUES(2,'gs4c7kb4ut1gv8pi752u4tdo','Public','Default role given to unauthenticated user.','public','2026-11-23 21:38:25.455+00:00','2026-11-23 21:38:25.455+00:00');
CREATE TABLE `up_permissions` (`id` integer PRIMARY KEY AUTOINCREMENT,`role_id` integer NOT NULL,`action` text NOT NULL,`created_at` datetime NOT NULL);
INSERT INTO up_permissions VALUES(1,1,'plugin::users-permissions.auth.changePassword','2026-11-23 21:38:25.454+00:00');
INSERT INTO up_permissions VALUES(2,1,'plugin::users-permissions.user.me','2026-11-23 21:38:25.454+00:00');
INSERT INTO up_permissions VALUES(3,2,'plugin::users-permissions.auth.callback','2026-11-23 21:38:25.455+00:00');
INSERT INTO up_permissions VALUES(4,2,'plugin::users-permissions.auth.connect','2026-11-23 21:38:25.455+00:00');
INSERT INTO up_permissions VALUES(5,2,'plugin::users-permissions.auth.emailConfirmation','2026-11-23 21:38:25.455+00:00');
INSERT INTO up_permissions VALUES(6,2,'plugin::users-permissions.auth.forgotPassword','2026-11-23 21:38:25.455+00:00');
INSERT INTO up_permissions VALUES(7,2,'plugin::users-permissions.auth.register','2026-11-23 21:38:25.455+00:00');
INSERT INTO up_permissions VALUES(8,2,'plugin::users-permissions.auth.resetPassword','2026-11-23 21:38:25.455+00:00');
INSERT INTO up_permissions VALUES(9,2,'plugin::users-permissions.auth.sendEmailConfirmation','2026-11-23 21:38:25.455+00:00');
INSERT INTO up_permissions VALUES(10,2,'api::article.article.create','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(11,2,'api::article.article.delete','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(12,2,'api::article.article.find','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(13,2,'api::article.article.findOne','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(14,2,'api::article.article.update','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(15,2,'api::author.author.create','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(16,2,'api::author.author.delete','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(17,2,'api::author.author.find','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(18,2,'api::author.author.findOne','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(19,2,'api::author.author.update','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(20,2,'api::category.category.create','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(21,2,'api::category.category.delete','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(22,2,'api::category.category.find','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(23,2,'api::category.category.findOne','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(24,2,'api::category.category.update','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(25,2,'api::global.global.create','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(26,2,'api::global.global.delete','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(27,2,'api::global.global.find','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(28,2,'api::global.global.findOne','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(29,2,'api::global.global.update','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(30,2,'api::tag.tag.create','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(31,2,'api::tag.tag.delete','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(32,2,'api::tag.tag.find','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(33,2,'api::tag.tag.findOne','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(34,2,'api::tag.tag.update','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(35,2,'plugin::upload.content-api.find','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(36,2,'plugin::upload.content-api.findOne','2026-11-23 21:38:25.457+00:00');
INSERT INTO up_permissions VALUES(37,2,'plugin::upload.content-api.upload','2026-11-23 21:38:25.457+00:00');
CREATE TABLE `up_users` (`id` integer PRIMARY KEY AUTOINCREMENT,`document_id` text NOT NULL,`username` text NOT NULL,`email` text NOT NULL,`provider` text NOT NULL DEFAULT "local",`password` text NOT NULL DEFAULT "",`reset_password_token` text,`confirmation_token` text,`confirmed` numeric NOT NULL DEFAULT false,`blocked` numeric NOT NULL DEFAULT false,`role_id` integer,`created_at` datetime NOT NULL,`updated_at` datetime NOT NULL,`published_at` datetime);
INSERT INTO up_users VALUES(1,'mrwjvx96t7ahso8gea2jwg8f','ada','ada@example.com','local','$2a$10$cey/XZApZMlJW1kdX90w0ORPQp6SU0BkuIl4bRpfAcgpBivFY7m1y',NULL,NULL,1,0,1,'2026-11-23 21:38:25.53+00:00','2026-11-23 21:38:25.53+00:00','2026-11-23 21:38:25.53+00:00');
CREATE TABLE `stratum_admin_users` (`id` integer PRIMARY KEY AUTOINCREMENT,`document_id` text NOT NULL,`firstname` text NOT NULL DEFAULT "",`lastname` text NOT NULL DEFAULT "",`email` text NOT NULL,`password` text NOT NULL,`is_active` numeric NOT NULL DEFAULT true,`blocked` numeric NOT NULL DEFAULT false,`created_at` datetime NOT NULL,`updated_at` datetime NOT NULL);
INSERT INTO stratum_admin_users VALUES(1,'fmiq8d1q1nsxk7wsfsyvx93v','Root','','root@example.com','$2a$10$licqL5j3Svk5mR3/u1AulusDsHruiAiI8LbLELT8FUmakLi46P73a',1,0,'2026-11-23 21:38:25.601+00:00','2026-11-23 21:38:25.601+00:00');
CREATE TABLE `stratum_api_tokens` (`id` integer PRIMARY KEY AUTOINCREMENT,`name` text NOT NULL,`description` text NOT NULL DEFAULT "",`type` text NOT NULL,`access_key` text NOT NULL,`last_used_at` datetime,`expires_at` datetime,`lifespan` integer,`permissions` text NOT NULL,`created_at` datetime NOT NULL,`updated_at` datetime NOT NULL);
INSERT INTO stratum_api_tokens VALUES(1,'reader','','read-only','773bcd3fa2b08de52f36ad401dd3101ac29060c88ab04c5d24cdddca0f965e44d5ddf829b6f2bd4befbf3ba6745df00ef77c5fa088bd986f35cbe068321baf17',NULL,NULL,NULL,'[]','2026-11-23 21:38:25.603+00:00','2026-11-23 21:38:25.603+00:00');
CREATE TABLE `stratum_files` (`id` integer PRIMARY KEY AUTOINCREMENT,`document_id` text NOT NULL,`name` text NOT NULL,`alternative_text` text,`caption` text,`width` integer,`height` integer,`formats` text,`hash` text NOT NULL,`ext` text,`mime` text,`size` real,`url` text,`created_at` datetime,`updated_at` datetime);
INSERT INTO stratum_files VALUES(1,'nmxgbfrw5kwn6hu1mxmhpe33','Old Photo.png','From before',NULL,300,200,'{"thumbnail":{"name":"thumbnail_Old Photo.png","hash":"thumbnail_old_photo_2545066c3d","ext":".png","mime":"image/png","path":null,"width":234,"height":156,"size":1.4,"sizeInBytes":1398,"url":"/uploads/thumbnail_old_photo_2545066c3d.png"}}','old_photo_2545066c3d','.png','image/png',0.82999999999999996003,'/uploads/old_photo_2545066c3d.png','2026-11-23 21:38:25.683+00:00','2026-11-23 21:38:25.683+00:00');
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('up_roles',2);
INSERT INTO sqlite_sequence VALUES('up_permissions',37);
INSERT INTO sqlite_sequence VALUES('up_users',1);
INSERT INTO sqlite_sequence VALUES('stratum_admin_users',1);
INSERT INTO sqlite_sequence VALUES('stratum_api_tokens',1);
INSERT INTO sqlite_sequence VALUES('stratum_files',1);
INSERT INTO sqlite_sequence VALUES('articles',2);
CREATE UNIQUE INDEX "articles_doc_uq" ON "articles" (document_id, locale, (published_at IS NULL));
CREATE INDEX "articles_pub_idx" ON "articles" (id) WHERE published_at IS NOT NULL;
CREATE INDEX "articles_draft_idx" ON "articles" (id) WHERE published_at IS NULL;
CREATE INDEX "articles_title_tix" ON "articles" ((data->>'title'), id);
CREATE UNIQUE INDEX "articles_slug_uq" ON "articles" ((data->>'slug'), locale) WHERE published_at IS NOT NULL;
CREATE INDEX "articles_kind_tix" ON "articles" ((data->>'kind'), id);
CREATE INDEX "articles_views_nix" ON "articles" ((CAST(data->>'views' AS NUMERIC)), id);
CREATE INDEX "articles_shares_nix" ON "articles" ((CAST(data->>'shares' AS NUMERIC)), id);
CREATE INDEX "articles_rating_nix" ON "articles" ((CAST(data->>'rating' AS NUMERIC)), id);
CREATE INDEX "articles_price_nix" ON "articles" ((CAST(data->>'price' AS NUMERIC)), id);
CREATE INDEX "articles_publishDate_tix" ON "articles" ((data->>'publishDate'), id);
CREATE INDEX "articles_publishTime_tix" ON "articles" ((data->>'publishTime'), id);
CREATE INDEX "articles_scheduledAt_tix" ON "articles" ((data->>'scheduledAt'), id);
CREATE INDEX "articles_author_rel" ON "articles" ((extra->>'author'));
CREATE INDEX "articles_category_rel" ON "articles" ((extra->>'category'));
CREATE UNIQUE INDEX "authors_doc_uq" ON "authors" (document_id, locale, (published_at IS NULL));
CREATE INDEX "authors_pub_idx" ON "authors" (id) WHERE published_at IS NOT NULL;
CREATE INDEX "authors_draft_idx" ON "authors" (id) WHERE published_at IS NULL;
CREATE UNIQUE INDEX "authors_email_uq" ON "authors" ((data->>'email'), locale) WHERE published_at IS NOT NULL;
CREATE UNIQUE INDEX "categories_doc_uq" ON "categories" (document_id, locale, (published_at IS NULL));
CREATE INDEX "categories_pub_idx" ON "categories" (id) WHERE published_at IS NOT NULL;
CREATE INDEX "categories_draft_idx" ON "categories" (id) WHERE published_at IS NULL;
CREATE UNIQUE INDEX "categories_name_uq" ON "categories" ((data->>'name'), locale) WHERE published_at IS NOT NULL;
CREATE UNIQUE INDEX "categories_slug_uq" ON "categories" ((data->>'slug'), locale) WHERE published_at IS NOT NULL;
CREATE INDEX "categories_parent_rel" ON "categories" ((extra->>'parent'));
CREATE UNIQUE INDEX "globals_doc_uq" ON "globals" (document_id, locale, (published_at IS NULL));
CREATE INDEX "globals_pub_idx" ON "globals" (id) WHERE published_at IS NOT NULL;
CREATE INDEX "globals_draft_idx" ON "globals" (id) WHERE published_at IS NULL;
CREATE UNIQUE INDEX "tags_doc_uq" ON "tags" (document_id, locale, (published_at IS NULL));
CREATE INDEX "tags_pub_idx" ON "tags" (id) WHERE published_at IS NOT NULL;
CREATE INDEX "tags_draft_idx" ON "tags" (id) WHERE published_at IS NULL;
CREATE UNIQUE INDEX "tags_name_uq" ON "tags" ((data->>'name'), locale) WHERE published_at IS NOT NULL;
CREATE UNIQUE INDEX `up_roles_type_uq` ON `up_roles`(`type`);
CREATE UNIQUE INDEX `up_roles_name_uq` ON `up_roles`(`name`);
CREATE UNIQUE INDEX `up_permissions_role_action_uq` ON `up_permissions`(`role_id`,`action`);
CREATE INDEX `up_users_role_idx` ON `up_users`(`role_id`);
CREATE UNIQUE INDEX `up_users_email_uq` ON `up_users`(`email`);
CREATE UNIQUE INDEX `up_users_username_uq` ON `up_users`(`username`);
CREATE UNIQUE INDEX `stratum_admin_users_email_uq` ON `stratum_admin_users`(`email`);
CREATE UNIQUE INDEX `stratum_api_tokens_access_key_uq` ON `stratum_api_tokens`(`access_key`);
CREATE UNIQUE INDEX `stratum_api_tokens_name_uq` ON `stratum_api_tokens`(`name`);
CREATE UNIQUE INDEX `idx_stratum_files_hash` ON `stratum_files`(`hash`);
CREATE INDEX `idx_stratum_files_document_id` ON `stratum_files`(`document_id`);
COMMIT;
