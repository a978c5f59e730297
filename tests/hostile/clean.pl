#!/usr/bin/perl
# clean.pl FILE...: report every byte in FILE that could drive a terminal
# or hide text: C0 controls but "\n" and "\t", DEL, C1 controls, bidi
# controls, zero-width and invisible characters, invalid UTF-8, and (with
# -sgr) every escape sequence but SGR colours, which tmux's capture-pane -e
# adds itself.  Exits 1 with the first offences when something is found.
# (perl-base is essential on Debian: always there.)
use strict;
use warnings;

my $sgr = 0;
if (@ARGV && $ARGV[0] eq '-sgr') {
	$sgr = 1;
	shift @ARGV;
}
my $bad = 0;
for my $f (@ARGV) {
	open(my $fh, '<:raw', $f) or die "$f: $!\n";
	local $/;
	my $s = <$fh>;
	close($fh);
	$s =~ s/\e\[[0-9;:]*m//g if $sgr;
	my @why;
	push @why, sprintf('control byte 0x%02x', ord($1))
	    while @why < 5 && $s =~ /([\x00-\x08\x0b-\x1f\x7f])/g;
	pos($s) = 0;
	push @why, 'C1 control' if $s =~ /\xc2[\x80-\x9f]/;
	push @why, 'bidi control'
	    if $s =~ /\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c/;
	push @why, 'invisible character'
	    if $s =~ /\xe2\x80[\x8b-\x8d\xa8\xa9]|\xe2\x81[\xa0-\xa4]|\xef\xbb\xbf|\xc2\xad|\xf3\xa0[\x80\x81]/;
	my $copy = $s;
	push @why, 'invalid UTF-8' unless utf8::decode($copy);
	if (@why) {
		print "$f: ", join(', ', @why), "\n";
		$bad = 1;
	}
}
exit $bad;
