# Xcode "Run Script" build phase: lint the target's entitlements with the build's own facts, so
# findings appear in Xcode's issue navigator (the text format is `path:line:col: error: ...`).
#
# Target > Build Phases > + > New Run Script Phase, placed before "Link Binary With Libraries";
# paste the lines below. With "User Script Sandboxing" on (ENABLE_USER_SCRIPT_SANDBOXING), add
# $(SRCROOT)/$(CODE_SIGN_ENTITLEMENTS) to the phase's Input Files, and the .entitlint.yml too if
# the project has one.
if ! command -v entitlint >/dev/null 2>&1; then
    echo "warning: entitlint is not installed (swift build -c release in its repository, then put .build/release on PATH)"
    exit 0
fi
if [ -z "${CODE_SIGN_ENTITLEMENTS:-}" ]; then
    exit 0   # this target has no entitlements file
fi
cd "${SRCROOT}"
entitlint lint "${CODE_SIGN_ENTITLEMENTS}" \
    --bundle-id "${PRODUCT_BUNDLE_IDENTIFIER}" \
    ${DEVELOPMENT_TEAM:+--team-id "${DEVELOPMENT_TEAM}"}
