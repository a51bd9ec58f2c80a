# Shared by the synth_*.sh tests: reads synth_variants.txt.
# synth_variants CHECK: prints "NAME OPTIONS..." for every variant whose checks include CHECK.
synth_variants() {
    grep -v -e '^#' -e '^[[:space:]]*$' "$(dirname "$0")/synth_variants.txt" |
        while read -r name checks opts; do
            case "$checks" in *"$1"*) echo "$name $opts" ;; esac
        done
}
