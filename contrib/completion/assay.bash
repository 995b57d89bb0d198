# bash completion for assay (installed as share/bash-completion/completions/assay).
# Commands and options are read from `assay --help` and `assay <command> --help`, so they never
# fall behind the program; option values are completed where they are a fixed set, a folder,
# or a checkpoint of the suite on the command line.

_assay_options()
{
	# every "-x, --name" or "--name" at the start of a help line
	"$1" "$2" --help 2>/dev/null | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z-]*\).*/\2/p'
}

_assay_report_formats()
{
	# the names on --format's help line ("also write a report: json, jsonl, ... (repeatable)"),
	# which the program makes from its table of formats
	"$1" report --help 2>/dev/null |
		sed -n 's/.*--format .*also write a report: \(.*\) (repeatable).*/\1/p' | tr -d ,
}

_assay_checkpoints()
{
	# the keys under `checkpoints:` of SUITE/suite.yaml, in block style
	local suite=$1
	[ -f "$suite/suite.yaml" ] || return
	sed -n '/^checkpoints:/,/^[^ #]/{s/^  \([A-Za-z0-9_.-]*\):.*/\1/p}' "$suite/suite.yaml"
}

_assay()
{
	local cur prev cmd suite i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	local assay=${COMP_WORDS[0]}

	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$("$assay" --help 2>/dev/null | sed -n 's/^  \([a-z-]*\)  .*/\1/p') help --help" -- "$cur"))
		return
	fi
	cmd=${COMP_WORDS[1]}
	if [ "$cmd" = help ]; then
		COMPREPLY=($(compgen -W "$("$assay" --help 2>/dev/null | sed -n 's/^  \([a-z-]*\)  .*/\1/p')" -- "$cur"))
		return
	fi
	# a command with subcommands (`assay skill init ...`): complete the subcommand, then its
	# options
	if "$assay" "$cmd" --help 2>/dev/null | grep -q '^subcommands:'; then
		if [ "$COMP_CWORD" -eq 2 ]; then
			COMPREPLY=($(compgen -W "$("$assay" "$cmd" --help 2>/dev/null | sed -n 's/^  \([a-z-]*\)  .*/\1/p')" -- "$cur"))
			return
		fi
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$("$assay" "$cmd" "${COMP_WORDS[2]}" --help 2>/dev/null | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z-]*\).*/\2/p')" -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return
	fi
	# the first word after the command that is not an option or an option's value
	for ((i = 2; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) case ${COMP_WORDS[i-1]} in
			-e|--entry|-s|--submission|-c|--checkpoint|-g|--group|--case|--work-dir|\
			--stdout-cap|--stderr-cap|--kill-grace|--sandbox|--network|--pass-env|-j|--jobs|\
			--scratch-size|--scratch-inodes|\
			-o|--output|--color|--max-failures|--value-cap|--format|-a|--attribute|--value|\
			--shard|--shard-durations|--suite|-p|--problem|--environment) ;;
			*) suite=${COMP_WORDS[i]}; break ;;
			esac ;;
		esac
	done
	# run-case may name its suite with -p PROBLEM (a folder, or a name under ./problems/)
	for ((i = 2; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i-1]} in
		-p|--problem) suite=${COMP_WORDS[i]}
			[ -d "$suite" ] || suite=problems/$suite ;;
		esac
	done
	# run's and report's --format take a report format
	if [[ ($prev == --format || $prev == -f) && ($cmd == run || $cmd == report) ]]; then
		COMPREPLY=($(compgen -W "$(_assay_report_formats "$assay")" -- "$cur"))
		return
	fi
	case $prev in
	--color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
	--sandbox) COMPREPLY=($(compgen -W "on off required" -- "$cur")); return ;;
	--network) COMPREPLY=($(compgen -W "on off" -- "$cur")); return ;;
	--format) COMPREPLY=($(compgen -W "text json" -- "$cur")); return ;;
	--value) COMPREPLY=($(compgen -W "actual expected diff" -- "$cur")); return ;;
	--shard) COMPREPLY=($(compgen -W "auto" -- "$cur")); return ;;
	--shard-durations) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	-c|--checkpoint) COMPREPLY=($(compgen -W "$(_assay_checkpoints "$suite")" -- "$cur")); return ;;
	-o|--output|-s|--submission|--work-dir|--suite) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	-e|--entry)
		# in run-case, -e is the environment file (verification.md's run-case)
		if [ "$cmd" = run-case ] && [ "$prev" = -e ]; then
			COMPREPLY=($(compgen -f -- "$cur"))
		else
			COMPREPLY=($(compgen -c -- "$cur"))
		fi
		return ;;
	--environment) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	-p|--problem) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	-j|--jobs) COMPREPLY=($(compgen -W "$(seq 1 "$(nproc 2>/dev/null || echo 1)")" -- "$cur")); return ;;
	-g|--group|--case|--stdout-cap|--stderr-cap|--kill-grace|--pass-env|--max-failures|\
	--value-cap|-a|--attribute|--scratch-size|--scratch-inodes) return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_assay_options "$assay" "$cmd")" -- "$cur"))
	else
		COMPREPLY=($(compgen -d -- "$cur"))
	fi
}

complete -F _assay assay
