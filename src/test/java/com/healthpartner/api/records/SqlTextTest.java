package com.healthpartner.api.records;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SqlTextTest {

	@Test
	void runsOfWhiteSpaceOutsideQuotesBecomeOneSpace() {
		assertThat(SqlText.compact("""
				with input as (
				    select 'two  spaces', "a  name",   x
				\tfrom t
				)
				select * from input
				""")).isEqualTo("with input as ( select 'two  spaces', \"a  name\", x from t ) select * from input");
	}

	@Test
	void quotesWithinQuotedTextDoNotEndIt() {
		assertThat(SqlText.compact("select 'it''s  so',  \"say \"\"a  b\"\"\"  ,  1"))
			.isEqualTo("select 'it''s  so', \"say \"\"a  b\"\"\" , 1");
	}

	@Test
	void aTextWithACommentIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> SqlText.compact("select 1 -- one\n, 2"));
		assertThatIllegalArgumentException().isThrownBy(() -> SqlText.compact("select /* one */ 1"));
		assertThat(SqlText.compact("select '--', '/*', 4 - -1, 6 / 2")).isEqualTo("select '--', '/*', 4 - -1, 6 / 2");
	}

	@Test
	void theWriteStatementsAreCompact() {
		for (String upsert : List.of(RecordStatements.upsert(com.healthpartner.api.metric.Metrics.KIND),
				RecordStatements.upsertTogether(com.healthpartner.api.metric.Metrics.KIND))) {
			assertThat(upsert).doesNotContain("  ").doesNotContain("\n").startsWith("with input as (");
		}
	}

}
