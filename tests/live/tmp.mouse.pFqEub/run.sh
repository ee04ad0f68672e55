trap : INT
stty -g > '/work/main/tests/live/tmp.mouse.pFqEub/stty.before'
env XDG_CONFIG_HOME='/work/main/tests/live/tmp.mouse.pFqEub/config' LANG=C.UTF-8 LC_ALL=C.UTF-8  	'/work/main/src/stalltop'  2> '/work/main/tests/live/tmp.mouse.pFqEub/stderr'
echo $? > '/work/main/tests/live/tmp.mouse.pFqEub/exit'
stty -g > '/work/main/tests/live/tmp.mouse.pFqEub/stty.after'
echo STALLTOP-EXITED
exec sleep 600
