package answer

import (
	"strings"
	"testing"
)

// TestExtractiveListKeepsItsCaution: making room for an announced list does
// not drop the sentence before the announcer that warns about what it lists
// ("The drivers in this section are deprecated …; do not use them"): the
// list without it misleads.
func TestExtractiveListKeepsItsCaution(t *testing.T) {
	t.Parallel()
	content := "Storage drivers\n\nDocker supports several storage drivers, and the right one depends on your kernel and file system. " +
		"The drivers in this section are deprecated and will be removed in the next release; do not use them for new installations. " +
		"The following storage drivers can be selected with the --storage-driver option of dockerd:\n\n" +
		"- aufs: the original union file system driver, used on older Ubuntu kernels.\n" +
		"- devicemapper: a block-level driver based on the kernel's device mapper, used on CentOS and RHEL.\n" +
		"- overlay: the first overlay file system driver, superseded by overlay2.\n" +
		"- btrfs: a driver that stores layers as btrfs subvolumes.\n" +
		"- zfs: a driver that stores layers as zfs datasets.\n" +
		"- vfs: a driver that copies every layer, for testing only.\n" +
		"- windowsfilter: the driver of Windows containers.\n" +
		"- fuse-overlayfs: an overlay driver running in user space, for rootless mode.\n"
	r := Extractive("Which storage drivers can I select with the --storage-driver option of dockerd?", []Source{{N: 1, HeadingPath: "Storage drivers", Content: content}}, 0)
	if !strings.Contains(r.Answer, "deprecated") {
		t.Errorf("Answer =\n%s\nlost the caution about the drivers listed", r.Answer)
	}
}
