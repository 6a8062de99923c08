package com.healthpartner.api.records;

/**
 * Statement texts as the driver is given them. r2dbc-postgresql reads a statement's whole
 * text, character by character, each time it is created (to find its parameters), so the
 * statements of the hot paths are held with each run of white space outside quotes as one
 * space: the indentation of a long statement is a third of its text.
 */
public final class SqlText {

	private SqlText() {
	}

	/**
	 * {@code sql} with every run of white space outside quoted text and quoted names as
	 * one space, and none at either end. A comment would swallow what follows it once its
	 * line ends are gone, so a text with one is refused.
	 */
	public static String compact(String sql) {
		StringBuilder compact = new StringBuilder(sql.length());
		char quote = 0;
		boolean space = false;
		for (int i = 0; i < sql.length(); i++) {
			char c = sql.charAt(i);
			if (quote == 0 && Character.isWhitespace(c)) {
				space = true;
				continue;
			}
			if (quote == 0 && (c == '-' || c == '/') && i + 1 < sql.length()
					&& sql.charAt(i + 1) == ((c == '-') ? '-' : '*')) {
				throw new IllegalArgumentException("A statement to compact holds a comment: " + sql);
			}
			if (space && compact.length() > 0) {
				compact.append(' ');
			}
			space = false;
			if (c == '\'' || c == '"') {
				quote = (quote == 0) ? c : ((quote == c) ? 0 : quote);
			}
			compact.append(c);
		}
		return compact.toString();
	}

}
