-- EXISTS / NOT EXISTS not correlated (constant TRUE / FALSE for every row).
select r_name
from region
where exists (select 1 from nation where n_name = 'PERU')
  and not exists (select 1 from nation where n_name = 'ATLANTIS')
order by r_name
