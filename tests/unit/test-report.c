// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-report.c - what `ukbench report` builds its pages from: every run
 * string escaped for HTML and for markdown, base64 as RFC 4648 gives it,
 * the environments of two runs paired line by line with what differs
 * marked; and the text plots beside them: a box plot within its width
 * with its median where the values put it, a sparkline a point a column.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "capture.h"
#include "envdiff.h"
#include "html.h"
#include "record.h"
#include "textplot.h"
#include "width.h"

static void test_html_escapes(void **state)
{
	char *text = NULL;

	(void)state;
	CAPTURE(text, html_text(f, "<script>alert('x' & \"y\")</script>"));
	assert_null(strchr(text, '<'));
	assert_null(strchr(text, '>'));
	assert_null(strchr(text, '"'));
	assert_null(strchr(text, '\''));
	assert_non_null(strstr(text, "&lt;script&gt;"));
	assert_non_null(strstr(text, "&amp;"));
	free(text);
	/* a stored string's controls made visible, the page's newlines kept */
	CAPTURE(text, html_text(f, "a\033]0;t\007\nb\302\233"));
	assert_string_equal(text, "a^[]0;t^G\nb&lt;U+009B&gt;");
	free(text);
}

static void test_markdown_escapes(void **state)
{
	char *text = NULL;

	(void)state;
	CAPTURE(text, md_text(f, "a*b_c`d|e[f](g)<h>\nnext"));
	/* each markup character escaped; a line break is a space */
	assert_non_null(strstr(text, "a\\*b\\_c\\`d\\|e\\[f\\]"));
	assert_non_null(strstr(text, "\\<h\\>"));
	assert_null(strchr(text, '\n'));
	free(text);
}

static void test_base64(void **state)
{
	/* RFC 4648, section 10 */
	static const struct {
		const char *in, *out;
	} v[] = { { "", "" },
		  { "f", "Zg==" },
		  { "fo", "Zm8=" },
		  { "foo", "Zm9v" },
		  { "foob", "Zm9vYg==" },
		  { "fooba", "Zm9vYmE=" },
		  { "foobar", "Zm9vYmFy" } };

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char *text = NULL;

		CAPTURE(text, html_base64(f, v[i].in, strlen(v[i].in)));
		assert_string_equal(text, v[i].out);
		free(text);
	}
}

static void test_envdiff(void **state)
{
	struct rec_run a = { 0 }, b = { 0 };
	struct env_line *lines;
	size_t n, differs = 0, same = 0;
	int seen_kernel = 0;

	(void)state;
	a.environment = strdup("{\"kernel_release\":\"6.18.0\",\"clocksource\":\"tsc\","
			       "\"cpu_model\":\"Example CPU\",\"loadavg\":[0.1,0.2,0.3]}");
	b.environment = strdup("{\"kernel_release\":\"6.18.0+\",\"clocksource\":\"tsc\","
			       "\"cpu_model\":\"Example CPU\",\"loadavg\":[1.5,0.2,0.3]}");
	assert_non_null(a.environment);
	assert_non_null(b.environment);
	assert_int_equal(envdiff(&a, &b, &lines, &n), 0);
	assert_true(n >= 3);
	for (size_t i = 0; i < n; i++) {
		if (strstr(lines[i].key, "kernel")) {
			seen_kernel = 1;
			assert_true(lines[i].differs);
			assert_string_equal(lines[i].a, "6.18.0");
			assert_string_equal(lines[i].b, "6.18.0+");
		}
		if (strstr(lines[i].key, "clocksource"))
			assert_false(lines[i].differs);
		/* the load differs between any two runs: expected, not a finding */
		if (strstr(lines[i].key, "load"))
			assert_true(!lines[i].differs || lines[i].expected);
		differs += lines[i].differs && !lines[i].expected;
		same += !lines[i].differs;
	}
	assert_true(seen_kernel);
	assert_int_equal(differs, 1);
	assert_true(same >= 2);
	envdiff_free(lines, n);
	free(a.environment);
	free(b.environment);
}

static void test_box_plot(void **state)
{
	const double v[] = { 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };
	char buf[4 * 40 + 1];
	double q[5];

	(void)state;
	assert_int_equal(tp_five(v, 11, q), 0);
	assert_true(q[0] == 10 && q[2] == 15 && q[4] == 20);
	assert_int_equal(tp_box(buf, sizeof(buf), v, 11, 10, 30, 40), 0);
	assert_true(disp_width(buf) <= 40);
	/* the median (┃) in the first half of a scale that ends at twice the values' top */
	assert_non_null(strstr(buf, "┃"));
	assert_true((size_t)(strstr(buf, "┃") - buf) < strlen(buf) / 2 + 4);
	/* too narrow, or no values: refused */
	assert_int_equal(tp_box(buf, 4, v, 11, 10, 30, 40), -1);
}

static void test_sparkline(void **state)
{
	const double v[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	char buf[4 * 20 + 1];
	int cols;

	(void)state;
	cols = tp_spark(buf, sizeof(buf), v, 8, 20);
	assert_int_equal(cols, 8);
	assert_int_equal(disp_width(buf), 8);
	/* rising values: the first block lowest, the last highest */
	assert_true(!strncmp(buf, "▁", strlen("▁")));
	assert_non_null(strstr(buf, "█"));
	/* more points than columns: at most the width */
	assert_true(tp_spark(buf, sizeof(buf), v, 8, 4) <= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_escapes), cmocka_unit_test(test_markdown_escapes),
		cmocka_unit_test(test_base64),	     cmocka_unit_test(test_envdiff),
		cmocka_unit_test(test_box_plot),     cmocka_unit_test(test_sparkline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
