//! The threshold flags (`--hidden-threshold 3%`, ...): one clap argument
//! per [`Flag`] of the library, collected into [`Thresholds`]. The library
//! describes the flags as data and knows nothing of clap.

use clap::{Arg, ArgMatches, Command, FromArgMatches};
use rust_decimal::Decimal;

use billaudit::Thresholds;
use billaudit::audit::{Flag, flags};

/// The thresholds given on the command line (`#[command(flatten)]`): the
/// defaults, with each flag given set explicitly, to be applied over
/// billaudit.toml's with [`Thresholds::apply`].
#[derive(Debug, Clone, Default)]
pub struct ThresholdArgs(pub Thresholds);

impl clap::Args for ThresholdArgs {
    fn augment_args(mut cmd: Command) -> Command {
        for Flag {
            name,
            value_name,
            help,
            parse,
            ..
        } in flags()
        {
            cmd = cmd.arg(
                Arg::new(name)
                    .long(name)
                    .value_name(value_name)
                    .value_parser(parse)
                    .help(help),
            );
        }
        cmd
    }
    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for ThresholdArgs {
    /// The defaults, with the flags given set explicitly.
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut t = ThresholdArgs::default();
        t.update_from_arg_matches(m)?;
        Ok(t)
    }
    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        for f in flags() {
            if let Some(v) = m.get_one::<Decimal>(f.name) {
                self.0.set(f.check, *v);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use billaudit::vocab::checks::Check;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[derive(clap::Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        thresholds: ThresholdArgs,
    }

    #[test]
    fn flags_parse_fractions_and_mark_what_was_given() {
        use clap::Parser;
        let c = Cli::try_parse_from([
            "x",
            "--hidden-threshold",
            "3%",
            "--redundancy-threshold",
            "2",
        ])
        .unwrap();
        let t = c.thresholds.0;
        assert_eq!(t.hidden_share, d("0.03"));
        assert_eq!(t.redundancy, d("2"));
        assert_eq!(t.replica_share, d("0.30"));
        assert!(t.is_given(Check::HiddenFeeShare));
        assert!(!t.is_given(Check::ReplicaShare));
        assert!(Cli::try_parse_from(["x", "--hidden-threshold", "-1%"]).is_err());
        assert!(Cli::try_parse_from(["x", "--replica-threshold", "lots"]).is_err());
    }

    #[test]
    fn flag_help_names_the_check_and_its_default() {
        use clap::CommandFactory;
        let cmd = Cli::command();
        let help: String = cmd
            .get_arguments()
            .map(|a| {
                format!(
                    "--{} <{}> {}\n",
                    a.get_long().unwrap_or_default(),
                    a.get_value_names().unwrap_or_default().join(" "),
                    a.get_help().map(|h| h.to_string()).unwrap_or_default()
                )
            })
            .collect();
        for line in [
            "`hidden-fee-share` threshold: hidden / subtotal above this fails; `5%` or a fraction `0.05`, at most 100% [default: 5%]",
            "`replica-share` threshold: storage_replica / subtotal above this fails; `5%` or a fraction `0.05`, at most 100% [default: 30%]",
            "`replica-redundancy` threshold: (storage + storage_replica) / storage above this; a ratio such as `1.2` [default: 1.2]",
            "`scheduling-fee-share` threshold: scheduling / compute above this; `5%` or a fraction `0.05`, at most 100% [default: 8%]",
            "--hidden-threshold <SHARE>",
            "--redundancy-threshold <RATIO>",
        ] {
            assert!(help.contains(line), "{line}\n{help}");
        }
    }
}
