stty -g > '/work/main/tests/tty/tmp.signals.B9WHWY/stty.before'
env XDG_CONFIG_HOME='/work/main/tests/tty/tmp.signals.B9WHWY/config' LANG=C.UTF-8 LC_ALL=C.UTF-8  	'/tmp/st/stalltop'  2> '/work/main/tests/tty/tmp.signals.B9WHWY/stderr'
echo $? > '/work/main/tests/tty/tmp.signals.B9WHWY/exit'
stty -g > '/work/main/tests/tty/tmp.signals.B9WHWY/stty.after'
echo STALLTOP-EXITED
exec sleep 600
