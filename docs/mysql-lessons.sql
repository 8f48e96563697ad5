-- Tabela de lições lida pela fonte MySQL/MariaDB (src/adapters/sources/mysql-source.ts).
-- Uma linha por lição; o id de cada documento é `db:{discipline}/{slug}`.
-- Os nomes da tabela e das colunas podem mudar (opções `table` e `columns`), desde que usem só
-- letras sem acento, números e _. `content` pode conter o bloco de metadados da lição; NULL vale
-- como texto vazio. Use utf8mb4 (acentos e emoji) também na conexão de quem grava as lições.
-- Mantido igual a lessonsTableSql() (test/documents.mysql.test.ts confere).

CREATE TABLE IF NOT EXISTS `lessons` (
  `id` INT AUTO_INCREMENT PRIMARY KEY,
  `discipline` VARCHAR(120) NOT NULL,
  `slug` VARCHAR(190) NOT NULL,
  `title` VARCHAR(300) NOT NULL,
  `content` LONGTEXT,
  `updated_at` TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  UNIQUE KEY `uq_discipline_slug` (`discipline`, `slug`)
) ENGINE=InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
