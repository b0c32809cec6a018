//! The built-in classification rules, in order. The first rule that matches
//! wins, so the order carries the traps:
//!
//! - tax and credit come first: `Tax for product code AWSDataTransfer` is tax;
//! - look-alike fees that are *not* hidden fees come next (Glacier early
//!   delete, extended support, Defender for Containers, log storage);
//! - replicas before storage: `Volume snapshot`, `数据盘快照` are replicas;
//! - bandwidth and scheduling before compute: `NAT Gateway instance` is bandwidth;
//!   the fee wins over the noun it is attached to (`Instance 42 download
//!   charge` is bandwidth, `Instance 42 storage charge` storage);
//! - a machine (server, VM, instance, RAM, CPU, GPU) before the disks it
//!   names: `Dedicated Root Server EX41-SSD` is compute;
//! - a disk, drive or volume before the workloads that use it: `Container
//!   disk (stopped pod)` is storage.
//!
//! Patterns are lowercase. A plain pattern matches anywhere in the text; a
//! pattern written `=word` matches only as a whole ASCII word (so `nat`
//! does not match `international`).

use crate::model::Category;

/// One ordered rule.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub id: &'static str,
    pub category: Category,
    pub patterns: &'static [&'static str],
    /// Matches only amounts <= 0: a positive `Credit card fee` or a usage
    /// row that mentions a `discount` is a charge, not a credit.
    pub non_positive_only: bool,
    pub why: &'static str,
}

use Category::*;

mod first;
mod services;

/// Every built-in rule, in the order they are tried: the first tier
/// (`first::FIRST`: tax, credit and the look-alikes), the tiers of
/// `TIERS`, then the managed services of `services::SERVICES`.
pub const BUILTIN: &[Rule] =
    &concat::<{ first::FIRST.len() + TIERS.len() + services::SERVICES.len() }>(
        first::FIRST,
        &concat::<{ TIERS.len() + services::SERVICES.len() }>(TIERS, services::SERVICES),
    );

/// `a` then `b` in one array, at compile time (`a` is not empty).
const fn concat<const N: usize>(a: &[Rule], b: &[Rule]) -> [Rule; N] {
    let mut out = [a[0]; N];
    let mut i = 0;
    while i < a.len() {
        out[i] = a[i];
        i += 1;
    }
    let mut j = 0;
    while j < b.len() {
        out[a.len() + j] = b[j];
        j += 1;
    }
    out
}

/// The tiers after the first and before the managed services (the order
/// of the module's doc).
const TIERS: &[Rule] = &[
    Rule {
        id: "replica",
        category: StorageReplica,
        patterns: &[
            "snapshot",
            "backup",
            "replica",
            "replication",
            "redundan",
            "=grs",
            "=ra-grs",
            "=ragrs",
            "=zrs",
            "=gzrs",
            "=ra-gzrs",
            "geo-redundant",
            "zone-redundant",
            "快照",
            "备份",
            "副本",
            "冗余",
            "复制",
            "容灾",
            "异地",
            "disaster recovery",
            // de, fr, es, nl, ja
            "sicherung",
            "sauvegarde",
            "instantané",
            "copia de seguridad",
            "copias de seguridad",
            "instantánea",
            "instantâneo",
            "cópia de segurança",
            "=réplica",
            "reservekopie",
            "バックアップ",
            "スナップショット",
            "レプリカ",
            "冗長",
            // it
            "copia di sicurezza",
            "copie di sicurezza",
            // ko, pl, ru, tr, sv, da, nb, fi, cs, vi
            "스냅샷",
            "백업",
            "복제본",
            "kopie zapasowe",
            "kopia zapasowa",
            "kopii zapasowych",
            "migawk",
            "replikacj",
            "резервн",
            "снапшот",
            "снимок",
            "снимки",
            "репликац",
            "yedekleme",
            "anlık görüntü",
            "säkerhetskopi",
            "ögonblicksbild",
            "sikkerhedskopi",
            "sikkerhetskopi",
            "varmuuskopi",
            "tilannevedos",
            "zálohování",
            "záloha",
            "zálohy",
            "snímek",
            "sao lưu",
        ],
        non_positive_only: false,
        why: "snapshots, backups and redundant copies of storage",
    },
    Rule {
        id: "bandwidth",
        category: Bandwidth,
        patterns: &[
            "egress",
            "ingress",
            "data transfer",
            "datatransfer",
            "data-transfer",
            "transfer out",
            "transfer in",
            "out-bytes",
            "in-bytes",
            "bandwidth",
            "inter-region",
            "inter region",
            "interregion",
            "inter-az",
            "inter az",
            "inter zone",
            "inter-zone",
            "-xaz-",
            "nat gateway",
            "natgateway",
            "=nat",
            "public ip",
            "publicip",
            "elastic ip",
            "elasticip",
            "external ip",
            "=eip",
            "internet",
            "traffic",
            // A marketplace's own wording for a rented machine's traffic
            // (`Instance 42 download charge: 12.5 GB * $0.02/GB`): outbound
            // and inbound, so `upload` is also read by `ingress-charged`.
            "=download",
            "downloads",
            "=upload",
            "uploads",
            // Not bare `outbound`: Azure's `Included LB Rules and Outbound
            // Rules` is a load balancer's hourly rule charge, not traffic.
            "outbound data",
            "outbound transfer",
            "inbound data",
            "inbound transfer",
            "=cdn",
            "back-to-origin",
            "peering",
            "private link",
            "privatelink",
            "vpc endpoint",
            "vpcendpoint",
            // Azure Private Link's endpoint hours (`Standard Private Endpoint`).
            "private endpoint",
            // A public address rented on its own (`Primary IPv4`,
            // `Additional IPv4 address`), not a server's spec.
            "primary ipv4",
            "primary ipv6",
            "ipv4 address",
            "ipv6 address",
            "ipv4-address",
            "ipv6-address",
            "ipv4-adresse",
            "ipv6-adresse",
            "network transfer",
            "transfer overage",
            "data processed",
            "load balancer data",
            "流量",
            "带宽",
            "公网",
            "外网",
            "回源",
            "出方向",
            "入方向",
            "下行",
            "上行",
            "跨区域",
            "跨地域",
            "=ip",
            "弹性ip",
            "网络传输",
            // FOCUS `ServiceSubcategory` values of Networking that are traffic:
            // VPN, interconnect, transit and peering links, and CDNs.
            "network connectivity",
            "content delivery",
            // de, fr, es, nl, ja
            "datenverkehr",
            "datentransfer",
            "datenübertragung",
            "netzwerkverkehr",
            "bande passante",
            "=trafic",
            "transfert de données",
            "transferência de dados",
            "tráfego",
            "ancho de banda",
            "tráfico",
            "transferencia de datos",
            "dataverkeer",
            "データ転送",
            "転送量",
            "通信量",
            "帯域",
            // it
            "traffico",
            "trasferimento dati",
            // ko, pl, ru, tr, sv, da, nb, fi, cs, vi
            "트래픽",
            "대역폭",
            "데이터 전송",
            "네트워크 전송",
            "transfer danych",
            "transfer wychodząc",
            "transfer przychodząc",
            "ruch sieciow",
            "przepustowość",
            "трафик",
            "передача данных",
            "передачи данных",
            "пропускная способность",
            "=trafik",
            "veri transfer",
            "bant genişliği",
            "datatrafik",
            "dataöverföring",
            "bandbredd",
            "dataoverførsel",
            "tiedonsiirto",
            "kaistanleveys",
            "přenos dat",
            "datový přenos",
            "šířka pásma",
            "băng thông",
            "lưu lượng",
        ],
        non_positive_only: false,
        why: "egress, ingress, inter-region and inter-AZ transfer, NAT, public IPs, CDN",
    },
    Rule {
        id: "scheduling",
        category: Scheduling,
        patterns: &[
            "cluster management",
            "cluster-management",
            "cluster fee",
            "cluster usage",
            "per cluster",
            "cluster hour",
            "cluster-hour",
            "kubernetes cluster",
            "eks cluster",
            "percluster",
            "control plane",
            "control-plane",
            "controlplane",
            "orchestrat",
            "scheduling",
            "scheduler",
            "platform fee",
            "platform service",
            "management fee",
            "service fee",
            // A marketplace's fee on top of the host's price: the platform's
            // cut, not the machine.
            "buyer fee",
            "buyer's fee",
            "marketplace fee",
            "uptime sla",
            "=ack pro",
            "ack pro定价",
            "集群管理",
            "调度",
            "管理节点",
            "平台服务费",
            "平台费",
            "管理费",
            "服务费",
            "节点管理",
            // de, fr, es, ja
            "clusterverwaltung",
            "orchestrier",
            "verwaltungsgebühr",
            "plattformgebühr",
            "frais de gestion",
            "frais de plateforme",
            "gestion de cluster",
            "tarifa de gestión",
            "taxa de gerenciamento",
            "gerenciamento do cluster",
            // ko, pl, ru, tr, sv, da, nb, fi, cs, vi
            "관리 수수료",
            "관리비",
            "클러스터 관리",
            "플랫폼 수수료",
            "opłata za zarządzanie",
            "zarządzanie klastr",
            "opłata platformow",
            "плата за управление",
            "управление кластер",
            "комиссия платформ",
            "yönetim ücreti",
            "küme yönetimi",
            "platform ücreti",
            "förvaltningsavgift",
            "administrationsavgift",
            "plattformsavgift",
            "poplatek za správu",
            "správa clusteru",
            "管理料",
            "プラットフォーム料",
        ],
        non_positive_only: false,
        why: "cluster-management, control-plane, platform and scheduling fees",
    },
    // A load balancer's hours, rules and capacity units are a network
    // service, not traffic and not the machine: before `compute`, so
    // `负载均衡实例费` (a load balancer's instance fee) is not compute. Its data
    // processed is bandwidth (`load balancer data`, `data processed`, above).
    Rule {
        id: "load-balancer",
        category: Other,
        patterns: &[
            "load balancer",
            "loadbalancer",
            "load-balancer",
            "nodebalancer",
            "负载均衡",
            "ロードバランサ",
            "équilibreur de charge",
            "balanceador de carga",
        ],
        non_positive_only: false,
        why: "load balancers: a network service priced by the hour, rule or capacity unit (their data processed is bandwidth)",
    },
    // The fee wins over the noun: a line that says it is a storage charge
    // is storage whatever machine it belongs to (`Instance 42 storage
    // charge: 2000 GB*hr`), and a storage product by name is storage
    // (`Storage Box BX11`, `Block Storage Volume`).
    Rule {
        id: "storage-fee",
        category: Storage,
        patterns: &[
            "storage charge",
            "storage fee",
            "storage cost",
            "storage usage",
            // Azure's meter for the amount stored (`Azure Database for MySQL
            // Single Server - Storage - Data Stored`): not the server.
            "data stored",
            "disk charge",
            "disk usage",
            "volume charge",
            "volume usage",
            "storage box",
            "storagebox",
            "block storage",
            "object storage",
            "object stor",
            "file storage",
            // S3's request lines name no storage word: they are what the
            // storage service costs (FOCUS puts them under Storage).
            "put, copy, post",
            "get and all other requests",
            "glacier requests",
            "gb-month",
            "gb-mo",
            "bytehrs",
            "timedstorage",
            "存储费",
            "云盘",
            "系统盘",
            "数据盘",
        ],
        non_positive_only: false,
        why: "storage charges and storage products by name: the fee wins over the machine it is attached to",
    },
    // A machine the customer rents is compute whatever disk it names:
    // `Dedicated Root Server EX41-SSD`, `VM 4 vCPU 80 GB NVMe`. Before
    // `storage`, whose `ssd`/`hdd`/`disk` such names carry.
    Rule {
        id: "compute",
        category: Compute,
        patterns: &[
            "=gpu",
            "gpus",
            "=cpu",
            "=cpus",
            "vcpu",
            "vcore",
            "=ram",
            "=memory",
            // Managed-database instance classes (`db.r6g.large`): the
            // machine size the customer chose, billed by the hour.
            "db.t",
            "db.m",
            "db.r",
            "db.x",
            "instance",
            "=server",
            "servers",
            "dedicated host",
            "=vps",
            "=vm",
            "=vms",
            "virtual machine",
            "máquina virtual",
            "maquina virtual",
            "=droplet",
            "droplets",
            "=ec2",
            "boxusage",
            "runinstances",
            "a100",
            "h100",
            "h800",
            "h200",
            "=h20",
            "a800",
            "=4090",
            "3090",
            "v100",
            "=t4",
            "=l4",
            "l40",
            "=rtx",
            "=tpu",
            "卡时",
            "核时",
            "实例",
            "云服务器",
            "服务器",
            "=ecs",
            "=cvm",
            "显卡",
            "主机",
            "内存",
            // de, fr, es, ja
            "instanz",
            "=serveur",
            "=servidor",
            "arbeitsspeicher",
            "インスタンス",
            "サーバ",
            "メモリ",
            // it
            "istanza",
            // ko, pl, ru, tr, sv, da, nb, fi, cs, vi
            "서버",
            "인스턴스",
            "컴퓨팅",
            "serwer",
            "instancj",
            "maszyna wirtualna",
            "maszyny wirtualnej",
            "сервер",
            "виртуальн",
            "инстанс",
            "sunucu",
            "sanal makine",
            "virtuell maskin",
            "virtuaalikone",
            "virtuální stroj",
            "máy chủ",
        ],
        non_positive_only: false,
        why: "machines: GPU and CPU instance time, servers, VMs, RAM, whatever disk their names carry",
    },
    Rule {
        id: "storage",
        category: Storage,
        patterns: &[
            "storage",
            "=disk",
            "disks",
            "=drive",
            "drives",
            "=volume",
            "volumes",
            "=ebs",
            "filesystem",
            "file system",
            "=nfs",
            "=blob",
            "=bucket",
            "=s3",
            "=oss",
            "=cos",
            "=obs",
            "=nas",
            "=image",
            "persistent",
            "=ssd",
            "=hdd",
            "=nvme",
            "=lrs",
            // Provisioned volume performance and GCP persistent disks.
            "iops",
            "mibps",
            "=gp2",
            "=gp3",
            "pd capacity",
            "=glacier",
            "存储",
            "硬盘",
            "磁盘",
            "镜像",
            "网盘",
            "文件系统",
            // de, fr, es, nl, ja
            "speicher",
            "festplatte",
            "stockage",
            "=disque",
            "almacenamiento",
            "armazenamento",
            "=disco",
            "=opslag",
            "ストレージ",
            "ディスク",
            // it
            "archiviazione",
            // ko, pl, ru, tr, sv, da, nb, fi, cs, vi
            "스토리지",
            "저장소",
            "디스크",
            "przestrzeń dyskow",
            "=dysk",
            "dysku",
            "magazyn danych",
            "хранилищ",
            "диск",
            "depolama",
            "lagring",
            "tallennustila",
            "úložiště",
            "lưu trữ",
        ],
        non_positive_only: false,
        why: "storage the customer provisioned: disks, drives, volumes, file systems, object storage",
    },
    // Workloads that run on machines the provider sizes: after `storage`,
    // so `Container disk (stopped pod)` is storage.
    Rule {
        id: "compute-workload",
        category: Compute,
        patterns: &[
            "compute",
            "=pod",
            "=pods",
            "container",
            "serverless",
            // A cluster or database node's hours (`Node per hour`,
            // ElastiCache `NodeUsage`).
            "=node",
            "=nodes",
            "nodeusage",
            "=lambda",
            "=function",
            "functions",
            "算力",
            "计算",
            "容器",
            "=calcul",
            "rechenzeit",
            "=calcolo",
        ],
        non_positive_only: false,
        why: "pods, containers, serverless functions and compute by name",
    },
];

/// The id a line item gets when no rule matched it.
pub const UNCLASSIFIED: &str = "builtin:unclassified";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique() {
        let mut ids: Vec<_> = BUILTIN.iter().map(|r| r.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), BUILTIN.len());
    }

    #[test]
    fn patterns_are_lowercase() {
        for r in BUILTIN {
            for p in r.patterns {
                assert_eq!(*p, p.to_lowercase(), "rule {} pattern {p}", r.id);
            }
        }
    }
}
