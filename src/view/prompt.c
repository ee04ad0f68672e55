/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The prompt on the bottom line: the text being typed for a search, a
 * filter, the interval or a time to jump to, or a yes/no question. This
 * file only edits the line; what it is for comes with struct prompt_ops
 * from the part that opened it.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/nls.h"
#include "lib/textwidth.h"
#include "view/screen_int.h"

void prompt_start(struct screen *s, const struct prompt_ops *ops,
		  const char *initial)
{
	s->prompt = ops->kind;
	s->prompt_ops = ops;
	snprintf(s->input, sizeof(s->input), "%s", initial ? initial : "");
	s->input_len = strlen(s->input);
	/* pre-filled text is selected: the first key typed replaces it */
	s->input_selected = s->input_len > 0;
}

/* Close the prompt first: what it was for may open another message. */
static const struct prompt_ops *close_prompt(struct screen *s)
{
	const struct prompt_ops *ops = s->prompt_ops;
	s->prompt = PROMPT_NONE;
	s->prompt_ops = NULL;
	return ops;
}

static void changed(struct screen *s)
{
	if (s->prompt_ops->changed)
		s->prompt_ops->changed(s, s->input);
}

/* Drop the last whole UTF-8 character. */
static void drop_char(struct screen *s)
{
	while (s->input_len &&
	       ((unsigned char)s->input[--s->input_len] & 0xc0) == 0x80)
		;
	s->input[s->input_len] = '\0';
}

void prompt_key(struct screen *s, int key)
{
	const struct prompt_ops *ops = s->prompt_ops;
	if (ops->answer) {
		close_prompt(s);
		ops->answer(s, key == 'y' || key == 'Y');
		return;
	}
	bool selected = s->input_selected;

	s->input_selected = false;
	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		close_prompt(s)->accept(s, s->input);
		return;
	case KEYS_ESC:
		if (close_prompt(s)->cancel)
			ops->cancel(s);
		return;
	case KEY_BACKSPACE:
	case KEYS_DEL:
	case KEYS_CTRL('h'):
		drop_char(s);
		changed(s);
		return;
	case KEY_LEFT:
	case KEY_RIGHT:
	case KEY_HOME:
	case KEY_END:
		/* the cursor stays at the end: the text is kept to edit */
		return;
	case KEYS_CTRL('u'):
		s->input_len = 0;
		s->input[0] = '\0';
		changed(s);
		return;
	}
	/* bytes of UTF-8 come one by one */
	if (key < ' ' || key > 255 || key == KEYS_DEL) {
		s->input_selected = selected;
		return;
	}
	if (selected) {
		s->input_len = 0;
		s->input[0] = '\0';
	}
	if (s->input_len + 1 < sizeof(s->input)) {
		s->input[s->input_len++] = (char)key;
		s->input[s->input_len] = '\0';
		changed(s);
	}
}

void prompt_draw(struct screen *s, int y)
{
	const struct prompt_ops *ops = s->prompt_ops;
	const char *label = ops->label ? _(ops->label) : s->prompt_label;
	char shown[sizeof(s->input) * 4];
	escape_text(s->input, shown, sizeof(shown));
	move(y, 0);
	screen_draw_text(s, label, false, textwidth_width(label), false, A_BOLD);
	int x = textwidth_width(label);
	/* keep the end of a long input in view */
	const char *tail = shown;
	while (textwidth_width(tail) > COLS - x - 1 && *tail)
		do
			tail++;
		while (((unsigned char)*tail & 0xc0) == 0x80);
	screen_draw_text(s, tail, false, COLS - x, false,
			 s->input_selected ? A_REVERSE : A_NORMAL);
	int cx = x + textwidth_width(tail);
	if (ops->hit && s->input_len && !ops->hit(s, s->input)) {
		move(y, cx + 1);
		screen_draw_text(s, _("(no match)"), false, COLS - cx - 1, false,
				 s->attr[R_WARN]);
	}
	move(y, cx < COLS ? cx : COLS - 1);
	curs_set(1);
}
