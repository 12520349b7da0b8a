# profhub.bash -- bash completion for profhub and cgview: subcommands,
# each subcommand's options (read from its --help, so they never drift),
# format names for -t/-F/-f, and the events of the profile already on the
# command line for -e/--event and -O event=.  Installed by make install
# as bash-completion/completions/profhub (and cgview).

# _profhub_formats read|write: format names from `profhub formats`.
_profhub_formats()
{
    local col=2
    [ "$1" = write ] && col=3
    "${_profhub_cmd:-profhub}" formats 2>/dev/null |
        awk -v c="$col" 'NR > 1 && $c == "yes" { print $1 }'
}

# _profhub_events FILE: event names of FILE, from `profhub info`.
_profhub_events()
{
    "${_profhub_cmd:-profhub}" info "$1" 2>/dev/null |
        awk '/^events:/ { on = 1; next } on && /^  / { print $1; next } { on = 0 }'
}

_profhub()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion || return
    else
        cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
    fi
    local _profhub_cmd=${words[0]} sub= i file= help
    if [ "${words[0]##*/}" = cgview ]; then
        sub=summary help=("$_profhub_cmd" --help)
    else
        for ((i = 1; i < cword; i++)); do
            case ${words[i]} in -*) ;; *) sub=${words[i]}; break ;; esac
        done
        if [ -z "$sub" ]; then
            COMPREPLY=($(compgen -W "summary info convert diff merge formats
                record collectors --help --version" -- "$cur"))
            return
        fi
        help=("$_profhub_cmd" "$sub" --help)
    fi
    # The first existing file after the subcommand: whose events to offer.
    for ((i = 1; i < cword; i++)); do
        case ${words[i-1]} in
        -o|--output|-t|--to|-F|--from|-f|--format|--exe|--config|--source-dir)
            continue ;;
        esac
        [ -f "${words[i]}" ] && { file=${words[i]}; break; }
    done
    case $prev in
    -t|--to)
        COMPREPLY=($(compgen -W "$(_profhub_formats write)" -- "$cur")); return ;;
    -F|--from)
        COMPREPLY=($(compgen -W "$(_profhub_formats read)" -- "$cur")); return ;;
    -f|--format)
        COMPREPLY=($(compgen -W "text csv json yaml" -- "$cur")); return ;;
    -e|--event)
        [ -n "$file" ] &&
            COMPREPLY=($(compgen -W "$(_profhub_events "$file")" -- "$cur"))
        return ;;
    -O|--option)
        local evs=
        [ -n "$file" ] && evs=$(_profhub_events "$file" | sed 's/^/event=/')
        COMPREPLY=($(compgen -W "$evs node_threshold= edge_threshold=" -- "$cur"))
        compopt -o nospace 2>/dev/null
        return ;;
    -g|--group)
        COMPREPLY=($(compgen -W "function file function-file object class" -- "$cur")); return ;;
    -s|--sort)
        COMPREPLY=($(compgen -W "self inclusive calls" -- "$cur")); return ;;
    --match)
        COMPREPLY=($(compgen -W "name+file+program name name+file
            name+file+object" -- "$cur")); return ;;
    --by)
        COMPREPLY=($(compgen -W "function file object line path" -- "$cur"))
        return ;;
    -c|--collector)
        COMPREPLY=($(compgen -W "$("$_profhub_cmd" collectors 2>/dev/null |
            awk '/^[a-z][a-z0-9_]*$/ { print $1 }')" -- "$cur")); return ;;
    --source-dir)
        COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$("${help[@]}" 2>/dev/null |
            grep -o -- '--[a-z][a-z-]*' | sort -u)" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _profhub profhub cgview
